import { Injectable } from '@nestjs/common';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';
import { sessionStatusEvent } from '../../webhooks/events/session-status.payload.js';
import { CatalogueStream } from '../../webhooks/events/catalogue-stream.js';
import { type OutboxEvent, WebhookOutbox } from '../../webhooks/outbox/webhook-outbox.service.js';

/** A state change of the Cloud number: its settings deleted, or its token refused by the provider. */
export interface MetaStateChange {
  state: 'connected' | 'disconnected' | 'token_refused';
  previousState: string;
  /** When it changed: the settings row's time of it. */
  since: Date;
  phoneNumberId: string;
  error: string;
}

/** What `write` wrote, for `enqueue` after the commit. */
export interface MetaStatusWritten {
  event: OutboxEvent;
  /** The due deliveries. */
  ids: string[];
}

/**
 * `session.status` of the Cloud number through the webhook outbox, written in the transaction of
 * the settings change that made it (so a change that rolls back sends nothing), woken after its
 * commit. The meta module imports the outbox (as for `meta.chat`), so it needs no hook.
 */
@Injectable()
export class MetaSessionStatus {
  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly stream: CatalogueStream,
  ) {}

  async write(workspaceId: string, tx: SqlExecutor, change: MetaStateChange): Promise<MetaStatusWritten> {
    const event = sessionStatusEvent(workspaceId, {
      channel: 'meta',
      state: change.state,
      previousState: change.previousState,
      since: change.since,
      error: change.error,
      connected: change.state === 'connected',
      loggedIn: change.state !== 'disconnected',
      phoneNumberId: change.phoneNumberId,
    });
    return { event, ids: await this.outbox.write(workspaceId, tx, event) };
  }

  /** After the commit: wakes the deliveries (a failure is left to the outbox's sweeper) and tells the live stream. */
  async enqueue(workspaceId: string, written: MetaStatusWritten): Promise<void> {
    if (written.ids.length) await this.outbox.enqueue(workspaceId, written.ids);
    await this.stream.publish(workspaceId, written.event);
  }
}
