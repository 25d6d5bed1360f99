import { Injectable } from '@nestjs/common';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';
import { metaChatEvent } from '../../webhooks/events/meta-chat.event.js';
import { WebhookOutbox } from '../../webhooks/outbox/webhook-outbox.service.js';

/**
 * The outbox's idempotency key of a callback's `meta.chat`: one forward per (workspace, callback
 * bytes). Each workspace's part differs, but webhooks belong to one workspace, so the callback's
 * hash alone keys each part.
 */
export const forwardKey = (bodySha256: string): string => `meta-callback:${bodySha256}`;

/**
 * `meta.chat` through the webhook outbox. The callback processor writes the deliveries of every
 * workspace a callback concerns, each with the workspace's own part of it, in the transaction that
 * marks the callback processed (nothing is forwarded twice, nothing is lost), and enqueues them
 * after the commit.
 */
@Injectable()
export class MetaChatForwarding {
  constructor(private readonly outbox: WebhookOutbox) {}

  /**
   * Writes the deliveries of `body` (the workspace's part of the callback: its exact bytes when
   * the whole callback is the workspace's) to the workspace's webhooks that subscribe to
   * `meta.chat`, in `tx`; nothing for a `sourceKey` written before.
   * Answers the new delivery ids.
   */
  write(workspaceId: string, tx: SqlExecutor, body: Buffer, sourceKey: string): Promise<string[]> {
    return this.outbox.write(workspaceId, tx, metaChatEvent(body, sourceKey));
  }

  /** After the commit: hands the deliveries to the delivery worker (a failure is left to the outbox's sweeper). */
  enqueue(workspaceId: string, deliveryIds: string[]): Promise<void> {
    return this.outbox.enqueue(workspaceId, deliveryIds);
  }
}
