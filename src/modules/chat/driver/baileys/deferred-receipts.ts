import type { WAMessageKey } from '@whiskeysockets/baileys';

type SendReceipt = () => Promise<void>;

// A receipt nobody took this long after Baileys deferred it belongs to a message Baileys never
// emitted: it is dropped unsent (WhatsApp offers the message again on the next connection).
const UNTAKEN_TTL_MS = 10 * 60_000;

/**
 * The receipts (and newsletter acks) of one socket's inbound messages, held until the service has
 * stored the messages (scripts/patch-baileys.mjs: Baileys hands them to `deferInboundReceipt`
 * instead of sending them before it emits the message). WhatsApp never sends an acknowledged
 * message again, so a receipt goes only after the message's transaction committed; a message
 * whose receipt never goes (the worker died, Postgres stayed away) is delivered again on the
 * next connection and stored once (ingest is idempotent).
 */
export class DeferredReceipts {
  private readonly waiting = new Map<string, { send: SendReceipt; at: number }[]>();
  private prunedAt = Date.now();

  constructor(private readonly onSendFailed: (error: unknown) => void) {}

  /** Baileys' hook: a message's receipt, to send once the message is stored. */
  defer(key: WAMessageKey, send: SendReceipt): void {
    if (!key.id) return void send().catch(this.onSendFailed);
    this.prune();
    this.waiting.set(key.id, [...(this.waiting.get(key.id) ?? []), { send, at: Date.now() }]);
  }

  /** The receipts of `messages` (one upsert), as one batch whose parts the events carry. */
  take(messages: readonly { key: WAMessageKey }[]): ReceiptBatch {
    const sends: SendReceipt[] = [];
    for (const { key } of messages) {
      const held = key.id ? this.waiting.get(key.id) : undefined;
      if (!held) continue;
      this.waiting.delete(key.id!);
      sends.push(...held.map((entry) => entry.send));
    }
    return new ReceiptBatch(sends, this.onSendFailed);
  }

  /** The socket ended: what was not sent stays unacknowledged, and WhatsApp keeps it. */
  clear(): void {
    this.waiting.clear();
  }

  get size(): number {
    return this.waiting.size;
  }

  /** At most once a minute: an offline burst defers thousands of receipts in a row. */
  private prune(): void {
    if (Date.now() - this.prunedAt < 60_000) return;
    this.prunedAt = Date.now();
    const cutoff = Date.now() - UNTAKEN_TTL_MS;
    for (const [id, held] of this.waiting) {
      if (held.every((entry) => entry.at < cutoff)) this.waiting.delete(id);
    }
  }
}

/**
 * The receipts of one batch of Baileys events, sent once every event made from the batch was
 * stored: each event carries a part (`part()`), the listener calls it after the inbox committed
 * the event. A part never called (the event failed) keeps the whole batch unacknowledged.
 */
export class ReceiptBatch {
  private parts = 0;
  private sealed = false;
  private failed = false;

  constructor(
    private readonly sends: readonly SendReceipt[],
    private readonly onSendFailed: (error: unknown) => void,
  ) {}

  /** One event's share: call it once the event's data is committed. */
  part(): () => void {
    this.parts += 1;
    let called = false;
    return () => {
      if (called) return;
      called = true;
      this.parts -= 1;
      this.flushIfDone();
    };
  }

  /**
   * Mapping the batch failed: some of its messages may never reach the inbox, so none of its
   * receipts goes (WhatsApp delivers them again on the next connection).
   */
  fail(): void {
    this.failed = true;
  }

  /** Every event of the batch has its part: a batch that made none is acknowledged at once. */
  seal(): void {
    this.sealed = true;
    this.flushIfDone();
  }

  private flushIfDone(): void {
    if (!this.sealed || this.parts > 0 || this.failed) return;
    for (const send of this.sends) void send().catch(this.onSendFailed);
  }
}
