import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';
import type { InboxChange, InboxChangeKind } from '../../inbox/changes/inbox-change.js';
import { InboxChangeHooks } from '../../inbox/changes/inbox-change-hooks.js';
import { WebhookOutbox } from '../outbox/webhook-outbox.service.js';
import { WEBHOOK_EVENT_CATALOGUE, type WebhookEventCatalogue, type WebhookEventDeclaration, type WebhookEventName } from './webhook-event.catalogue.js';

interface Produced {
  event: WebhookEventName;
  payload: (workspaceId: string, change: InboxChange) => object | null;
}

// What both calls of one change share: its message (ingest hands the same message object to both,
// not the same change object), or its conversation.
const subjectOf = (change: InboxChange): object => ('message' in change ? change.message : change.conversation);

/**
 * The producer of every catalogue event declared `fromInboxChange`: registered with
 * `InboxChangeHooks` for exactly the changes some event is made from (none: it registers nothing,
 * so no inbox write opens a transaction for it), it writes each event's rows in the change's
 * transaction and wakes their deliveries after the commit. No source key: the change's own
 * transaction writes its events once.
 */
@Injectable()
export class InboxEventProducer implements OnModuleInit, OnModuleDestroy {
  private unregister: (() => void) | null = null;

  constructor(
    private readonly hooks: InboxChangeHooks,
    private readonly outbox: WebhookOutbox,
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
      byChange.set(source.change, [...(byChange.get(source.change) ?? []), { event, payload }]);
    }
    if (byChange.size === 0) return () => undefined;
    // Due delivery ids a change's transaction wrote, for its after-commit step; a rolled-back
    // change's entry goes with its object.
    const due = new WeakMap<object, string[]>();
    return this.hooks.register({
      changes: [...byChange.keys()],
      inTransaction: (workspaceId, tx, change) => this.write(due, byChange.get(change.kind) ?? [], workspaceId, tx, change),
      afterCommit: (workspaceId, change) => this.enqueue(due, workspaceId, change),
    });
  }

  private async write(due: WeakMap<object, string[]>, events: readonly Produced[], workspaceId: string, tx: SqlExecutor, change: InboxChange): Promise<void> {
    const ids: string[] = [];
    for (const { event, payload } of events) {
      const body = payload(workspaceId, change);
      if (body) ids.push(...(await this.outbox.write(workspaceId, tx, { event, body: JSON.stringify(body), sourceKey: null })));
    }
    if (ids.length) due.set(subjectOf(change), ids);
  }

  private async enqueue(due: WeakMap<object, string[]>, workspaceId: string, change: InboxChange): Promise<void> {
    const subject = subjectOf(change);
    const ids = due.get(subject);
    due.delete(subject);
    if (ids) await this.outbox.enqueue(workspaceId, ids);
  }
}
