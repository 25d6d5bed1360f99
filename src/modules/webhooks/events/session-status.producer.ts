import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';
import { type ScanStatusChange, ScanStatusHooks } from '../../chat/session/scan-status-hooks.js';
import { type OutboxEvent, WebhookOutbox } from '../outbox/webhook-outbox.service.js';
import { CatalogueStream } from './catalogue-stream.js';
import { sessionStatusEvent, type SessionStatusChange } from './session-status.payload.js';

/** The scan session's change as the payload takes it. */
export const scanSessionChange = ({ status, previous }: ScanStatusChange): SessionStatusChange => ({
  channel: 'scan',
  state: status.state,
  previousState: previous?.state ?? null,
  since: status.since,
  error: status.error,
  connected: status.connected,
  loggedIn: status.logged_in,
  jid: status.jid,
});

/**
 * The producer of the scan number's `session.status` (webhook-event.catalogue.ts): registered
 * with the chat module's state-change hooks, it writes the event in their transaction and wakes
 * the deliveries after the commit. The Cloud number's are written by the meta module itself
 * (MetaSessionStatus), which imports the outbox.
 */
@Injectable()
export class SessionStatusProducer implements OnModuleInit, OnModuleDestroy {
  // What a change's transaction wrote (its event, the due delivery ids), for its after-commit step
  // (keyed by the change object).
  private readonly written = new WeakMap<ScanStatusChange, { event: OutboxEvent; ids: string[] }>();
  private unregister: (() => void) | null = null;

  constructor(
    private readonly hooks: ScanStatusHooks,
    private readonly outbox: WebhookOutbox,
    private readonly stream: CatalogueStream,
  ) {}

  onModuleInit(): void {
    this.unregister = this.hooks.register({
      inTransaction: (tx, change) => this.write(tx, change),
      afterCommit: (change) => this.enqueue(change),
    });
  }

  onModuleDestroy(): void {
    this.unregister?.();
  }

  private async write(tx: SqlExecutor, change: ScanStatusChange): Promise<void> {
    const event = sessionStatusEvent(change.workspaceId, scanSessionChange(change));
    this.written.set(change, { event, ids: await this.outbox.write(change.workspaceId, tx, event) });
  }

  private async enqueue(change: ScanStatusChange): Promise<void> {
    const written = this.written.get(change);
    this.written.delete(change);
    if (!written) return;
    if (written.ids.length) await this.outbox.enqueue(change.workspaceId, written.ids);
    await this.stream.publish(change.workspaceId, written.event);
  }
}
