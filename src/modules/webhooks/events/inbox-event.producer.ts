import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';
import type { InboxChange, InboxChangeKind } from '../../inbox/changes/inbox-change.js';
import { InboxChangeHooks } from '../../inbox/changes/inbox-change-hooks.js';
import type { LiveEventAudience } from '../../events/live-event.types.js';
import { type OutboxEvent, WebhookOutbox } from '../outbox/webhook-outbox.service.js';
import { CatalogueStream } from './catalogue-stream.js';
import { WEBHOOK_EVENT_CATALOGUE, type WebhookEventCatalogue, type WebhookEventDeclaration, type WebhookEventName } from './webhook-event.catalogue.js';

interface Produced {
  event: WebhookEventName;
  payload: (workspaceId: string, change: InboxChange) => object | null;
}

// What both calls of one change share: its message (ingest hands the same message object to both,
// not the same change object), or its conversation.
const subjectOf = (change: InboxChange): object => ('message' in change ? change.message : change.conversation);

/** What the webhooks' filters (`channels`, `include_groups`) look at: the change's conversation. */
const filtersOf = ({ conversation }: InboxChange): { channel: 'scan' | 'meta'; isGroup: boolean } => ({
  channel: conversation.channel,
  isGroup: conversation.isGroup,
});

/** What a change's transaction wrote: its events (for the live stream) and their due deliveries. */
interface Written {
  events: Pick<OutboxEvent, 'event' | 'body'>[];
  ids: string[];
}

// Agents see on the stream what they may see over REST: the conversation's assignee decides. A
// change made by ingest carries the conversation's identity without its assignee; its events go
// to those who see every conversation (owners, admins, keys) and to no agent.
const NO_AGENT = 'no-agent';

function audienceOf(change: InboxChange): LiveEventAudience {
  const { conversation } = change;
  if (!('assigneeId' in conversation)) return { assigneeId: NO_AGENT };
  const audience: LiveEventAudience = { assigneeId: conversation.assigneeId };
  if (change.kind === 'conversation.assignee') audience.previousAssigneeId = change.previousAssigneeId;
  return audience;
}

/**
 * The producer of every catalogue event declared `fromInboxChange`: registered with
 * `InboxChangeHooks` for exactly the changes some event is made from (none: it registers nothing,
 * so no inbox write opens a transaction for it), it writes each event's rows in the change's
 * transaction and wakes their deliveries after the commit, when it also hands the live stream its
 * copy (CatalogueStream, `GET /api/events?events=`). No source key: the change's own
 * transaction writes its events once.
 */
@Injectable()
export class InboxEventProducer implements OnModuleInit, OnModuleDestroy {
  private unregister: (() => void) | null = null;

  constructor(
    private readonly hooks: InboxChangeHooks,
    private readonly outbox: WebhookOutbox,
    private readonly stream: CatalogueStream,
  ) {}

  onModuleInit(): void {
    this.unregister = this.produce(WEBHOOK_EVENT_CATALOGUE);
  }

  onModuleDestroy(): void {
    this.unregister?.();
  }

  /** Produces the inbox-change events of `catalogue`; answers the function that stops it. */
  produce(catalogue: WebhookEventCatalogue): () => void {
    const byChange = new Map<InboxChangeKind, Produced[]>();
    for (const [event, declaration] of Object.entries(catalogue) as [WebhookEventName, WebhookEventDeclaration][]) {
      const { source } = declaration;
      if (!('change' in source)) continue;
      // Called only with changes of `source.change` (looked up by the change's kind below).
      const payload = source.payload as Produced['payload'];
      for (const kind of source.changes ?? [source.change]) byChange.set(kind, [...(byChange.get(kind) ?? []), { event, payload }]);
    }
    if (byChange.size === 0) return () => undefined;
    // Due delivery ids a change's transaction wrote, for its after-commit step; a rolled-back
    // change's entry goes with its object.
    const due = new WeakMap<object, Written>();
    return this.hooks.register({
      changes: [...byChange.keys()],
      inTransaction: (workspaceId, tx, change) => this.write(due, byChange.get(change.kind) ?? [], workspaceId, tx, change),
      afterCommit: (workspaceId, change) => this.enqueue(due, workspaceId, change),
    });
  }

  private async write(due: WeakMap<object, Written>, events: readonly Produced[], workspaceId: string, tx: SqlExecutor, change: InboxChange): Promise<void> {
    const written: Written = { events: [], ids: [] };
    const filters = filtersOf(change);
    for (const { event, payload } of events) {
      const body = payload(workspaceId, change);
      if (!body) continue;
      const made = { event, body: JSON.stringify(body) };
      written.events.push(made);
      written.ids.push(...(await this.outbox.write(workspaceId, tx, { ...made, sourceKey: null, ...filters })));
    }
    if (written.events.length) due.set(subjectOf(change), written);
  }

  private async enqueue(due: WeakMap<object, Written>, workspaceId: string, change: InboxChange): Promise<void> {
    const subject = subjectOf(change);
    const written = due.get(subject);
    due.delete(subject);
    if (!written) return;
    if (written.ids.length) await this.outbox.enqueue(workspaceId, written.ids);
    const audience = audienceOf(change);
    for (const event of written.events) await this.stream.publish(workspaceId, event, audience);
  }
}
