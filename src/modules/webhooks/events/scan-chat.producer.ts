import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { MessageEntity } from '../../inbox/entities/message.entity.js';
import { type IngestedMessage, IngestHooks, type MediaSettled, type PendingMessage } from '../../inbox/ingest/ingest-hooks.js';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';
import type { QueuedDelivery } from '../outbox/outbox.repository.js';
import { type OutboxEvent, WebhookOutbox } from '../outbox/webhook-outbox.service.js';
import { scanChatPayload, withStoredMedia } from './scan-chat.payload.js';

/**
 * The producer of `scan.chat` (webhook-event.catalogue.ts), for every new inbound message of a
 * scan number, through the outbox: written in the ingest transaction, queued after its commit.
 * Ingest's own hook (`IngestHooks`), not the catalogue's inbox-change producer: a group commit's
 * events go in one statement, and media holds them. Ingest calls no hooks for repeats, history or
 * messages the workspace sent, so none of those produce an event. A media message's deliveries
 * are held until its file is stored (or its download given up), then sent with `media_url`.
 * Per message, never per transaction: several messages may share one (group commit). The events
 * have no source key: ingest calls the hooks once per message it inserted, in the transaction that
 * inserts it, so the message's own unique index keeps its event single.
 */
const isScanInbound = ({ message }: PendingMessage): boolean => message.channel === 'scan' && message.direction === 'inbound';

/** A new message's `scan.chat` event: held while its media downloads. */
const eventOf = ({ workspaceId, message, conversation, mediaPending }: PendingMessage): OutboxEvent => ({
  event: 'scan.chat',
  body: JSON.stringify(scanChatPayload(workspaceId, message, conversation)),
  sourceKey: null,
  messageId: message.id,
  hold: mediaPending === true,
  // For the webhooks' filters (`channels`, `include_groups`).
  channel: 'scan',
  isGroup: conversation.isGroup,
});

@Injectable()
export class ScanChatProducer implements OnModuleInit {
  // What each message's transaction wrote, for its after-commit step (keyed by the message object
  // ingest hands to both; a rolled-back attempt's entry goes with its object).
  private readonly due = new WeakMap<MessageEntity, string[]>();
  private readonly released = new WeakMap<MessageEntity, QueuedDelivery[]>();

  constructor(
    private readonly hooks: IngestHooks,
    private readonly outbox: WebhookOutbox,
  ) {}

  onModuleInit(): void {
    this.hooks.register({
      inTransaction: (event) => this.write(event),
      inTransactionMany: (tx, events) => this.writeMany(tx, events),
      afterCommit: (event) => this.enqueue(event),
      afterCommitMany: (events) => this.enqueueMany(events),
      mediaSettled: (event) => this.release(event),
      afterMediaSettled: (event) => this.enqueueReleased(event),
    });
  }

  private async write({ tx, ...pending }: PendingMessage & { tx: SqlExecutor }): Promise<void> {
    if (!isScanInbound(pending)) return;
    const ids = await this.outbox.write(pending.workspaceId, tx, eventOf(pending));
    if (ids.length) this.due.set(pending.message, ids);
  }

  /** A group commit's messages: every event and delivery in one statement. */
  private async writeMany(tx: SqlExecutor, events: PendingMessage[]): Promise<void> {
    const scans = events.filter(isScanInbound);
    if (scans.length === 0) return;
    const due = await this.outbox.writeMany(
      tx,
      scans.map((pending) => ({ workspaceId: pending.workspaceId, ...eventOf(pending) })),
    );
    scans.forEach(({ message }, index) => {
      if (due[index]!.length) this.due.set(message, due[index]!);
    });
  }

  /**
   * After a group's commit: the jobs of all its deliveries in one bulk add. Not awaited: the rows
   * are committed (the sweeper wakes whatever this misses, and failures are logged), and the
   * group's callers, whose next messages form the next group, need not wait a Redis round trip.
   */
  private async enqueueMany(events: IngestedMessage[]): Promise<void> {
    const deliveries: { workspaceId: string; ids: string[] }[] = [];
    for (const { workspaceId, message } of events) {
      const ids = this.due.get(message);
      this.due.delete(message);
      if (ids) deliveries.push({ workspaceId, ids });
    }
    void this.outbox.enqueueMany(deliveries);
  }

  private async enqueue({ workspaceId, message }: IngestedMessage): Promise<void> {
    const ids = this.due.get(message);
    this.due.delete(message);
    if (ids) await this.outbox.enqueue(workspaceId, ids);
  }

  private async release({ workspaceId, tx, message }: MediaSettled & { tx: SqlExecutor }): Promise<void> {
    if (message.channel !== 'scan') return;
    const released = await this.outbox.release(workspaceId, tx, message.id, 'scan.chat', (body) => withStoredMedia(body, message));
    if (released.length) this.released.set(message, released);
  }

  private async enqueueReleased({ message }: MediaSettled): Promise<void> {
    const released = this.released.get(message);
    this.released.delete(message);
    if (released) await this.outbox.enqueueQueued(released);
  }
}
