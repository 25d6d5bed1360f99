import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { isDependencyUnavailable } from '../../../infra/http/dependency-errors.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import type { MessageStatus } from '../../inbox/entities/message.entity.js';
import { withoutNul } from '../../inbox/ingest/inbound-message.js';
import { InboxIngestService } from '../../inbox/ingest/inbox-ingest.service.js';
import { personJid } from '../../inbox/jid.js';
import { MessageStatusService } from '../../inbox/messages/message-status.service.js';
import { MessageUpdatesService } from '../../inbox/messages/message-updates.service.js';
import { type Json, objects, text } from '../callback/callback-payload.js';
import { asyncErrorText, messageIdsIn } from './async-errors.js';
import { MetaInboundRepository } from './meta-inbound.repository.js';
import { type MetaInboundMessage, type MetaInboundReaction, type MetaSender, messagesOf, toMetaInbound } from './meta-message.mapper.js';
import { mediaJobId, type MetaMediaJob } from './meta-media.processor.js';

const STATUSES: Readonly<Record<string, MessageStatus>> = { sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' };
// How long a status for an id we do not know may wait for a send in flight to record it.
const IN_FLIGHT_WAIT_MS = 3000;
const IN_FLIGHT_POLL_MS = 50;

/** Chat ids of people the provider names only by their business-scoped user id. */
export const bsuidJid = (bsuid: string): string => `${bsuid}@bsuid`;

/**
 * The inbox side of a `messages` change: inbound messages through `ingest()` (idempotent on the
 * provider's message id), reactions onto their target (`MessageUpdatesService`, which holds one
 * that arrives before its target until the target is stored), statuses forward only, asynchronous errors (in `statuses[].errors`
 * and `value.errors`) marking our messages failed with the provider's code and text, and a
 * `meta-media` job per inbound file. One bad item is logged and skipped; an outage of Postgres or
 * Redis fails the job, which runs again (every step is idempotent).
 */
@Injectable()
export class MetaInboundHandler {
  private readonly logger = new Logger('MetaInbound');

  constructor(
    private readonly ingest: InboxIngestService,
    private readonly statuses: MessageStatusService,
    private readonly updates: MessageUpdatesService,
    private readonly repository: MetaInboundRepository,
    @InjectQueue(QueueName.MetaMedia) private readonly mediaQueue: Queue<MetaMediaJob>,
  ) {}

  async handle(workspaceId: string, value: Json, received: Date): Promise<void> {
    const { messages, contacts } = messagesOf(value);
    for (const raw of messages) {
      await this.guard(workspaceId, 'message', async () => {
        const inbound = toMetaInbound(raw, contacts, received);
        if (!inbound) return;
        if ('reaction' in inbound) await this.reaction(workspaceId, inbound.reaction);
        else await this.message(workspaceId, inbound.message);
      });
    }
    const statuses = objects(value.statuses);
    for (const status of statuses) await this.guard(workspaceId, 'status', () => this.status(workspaceId, status));
    await this.guard(workspaceId, 'error', () => this.valueErrors(workspaceId, value, statuses));
  }

  /** The chat of a person: their existing cloud conversation's, else their phone's jid, else their BSUID's. */
  private async chatJidOf(workspaceId: string, { phone, bsuid }: MetaSender): Promise<string> {
    const phoneJid = phone ? personJid(phone) : null;
    return (await this.repository.knownChatJid(workspaceId, phone, bsuid, phoneJid)) ?? phoneJid ?? bsuidJid(bsuid!);
  }

  /**
   * The person is named as on their messages: by the chat's jid (a one-to-one chat's sender is its
   * person). That chat is the reaction's too: it changes only a message of the person's chat.
   */
  private async reaction(workspaceId: string, reaction: MetaInboundReaction): Promise<void> {
    const senderJid = await this.chatJidOf(workspaceId, reaction.sender);
    await this.updates.react(workspaceId, 'meta', {
      targetExternalId: reaction.targetExternalId,
      chatJid: senderJid,
      senderJid,
      fromMe: false,
      emoji: reaction.emoji,
    });
  }

  private async message(workspaceId: string, message: MetaInboundMessage): Promise<void> {
    const { phone, bsuid, name } = message.sender;
    const chatJid = await this.chatJidOf(workspaceId, message.sender);
    const { message: stored } = await this.ingest.ingest(
      workspaceId,
      withoutNul({
        channel: 'meta',
        externalId: message.externalId,
        chatJid,
        isGroup: false,
        chatName: name,
        senderJid: chatJid,
        senderName: name,
        contact: { phone, bsuid, name },
        type: message.type,
        content: message.content,
        media: message.media ? { mimeType: message.media.mimeType, fileName: message.media.fileName } : null,
        durationS: message.durationS,
        quotedExternalId: message.quotedExternalId,
        details: message.details,
        timestamp: message.timestamp,
      }),
    );
    // Also for a repeat whose file never arrived (the job id keeps it to one download).
    if (message.media && stored.mediaUrl === '') {
      const job: MetaMediaJob = { workspaceId, messageId: stored.id, mediaId: message.media.id };
      await this.mediaQueue.add('download', job, { jobId: mediaJobId(stored.id) });
    }
  }

  private async status(workspaceId: string, status: Json): Promise<void> {
    const id = text(status.id);
    const next = STATUSES[text(status.status) ?? ''];
    if (!id || !next) return;
    const errors = objects(status.errors);
    const error = next === 'failed' ? (asyncErrorText(errors[0]) ?? 'the provider reported the message as failed') : undefined;
    await this.moveStatus(workspaceId, id, next, error);
  }

  /**
   * Errors of the whole change (`value.errors`): they name no message by field, so they apply to
   * the messages this change reports statuses for, and to any of our message ids they quote.
   */
  private async valueErrors(workspaceId: string, value: Json, statuses: Json[]): Promise<void> {
    for (const error of objects(value.errors)) {
      const reason = asyncErrorText(error)!;
      const ids = new Set([...statuses.flatMap((s) => text(s.id) ?? []), ...messageIdsIn(error)]);
      if (ids.size === 0) this.logger.warn({ workspaceId, reason }, 'the provider reported an error for the number');
      for (const id of ids) await this.moveStatus(workspaceId, id, 'failed', reason);
    }
  }

  /**
   * The provider may report a status before our send has stored the provider's id on its row:
   * then, while a send is in flight, wait briefly and try again, so an early `failed` is not lost.
   */
  private async moveStatus(workspaceId: string, externalId: string, status: MessageStatus, error?: string): Promise<void> {
    const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
    for (;;) {
      if (await this.statuses.updateStatus(workspaceId, 'meta', externalId, status, error)) return;
      if (Date.now() >= deadline || (await this.repository.hasMessage(workspaceId, externalId))) return;
      if (!(await this.repository.sendInFlight(workspaceId))) return;
      await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_POLL_MS));
    }
  }

  private async guard(workspaceId: string, what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (isDependencyUnavailable(error)) throw error;
      this.logger.error({ err: error, workspaceId }, `cloud ${what} not processed`);
    }
  }
}
