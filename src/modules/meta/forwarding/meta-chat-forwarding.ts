import { Injectable } from '@nestjs/common';
import type { SqlExecutor } from '../../inbox/ingest/sql-transaction.js';

/**
 * Where `meta.chat` goes: the webhook outbox. The callback processor writes the deliveries of
 * every workspace a callback concerns in the transaction that marks the callback processed
 * (nothing is forwarded twice, nothing is lost), and enqueues them after the commit.
 */
export abstract class MetaChatForwarding {
  /**
   * Writes the deliveries of `body` (the callback's exact bytes) to the workspace's webhooks
   * that subscribe to `meta.chat`, in `tx`; at most one per webhook for `sourceKey`. Answers the
   * new delivery ids.
   */
  abstract write(workspaceId: string, tx: SqlExecutor, body: Buffer, sourceKey: string): Promise<string[]>;

  /** After the commit: hands the deliveries to the delivery worker. */
  abstract enqueue(workspaceId: string, deliveryIds: string[]): Promise<void>;
}

/** Until the webhook outbox is part of the service: callbacks are processed, nothing is forwarded. */
@Injectable()
export class NoMetaChatForwarding extends MetaChatForwarding {
  async write(): Promise<string[]> {
    return [];
  }

  async enqueue(): Promise<void> {}
}
