import type { ScanEvent, ScanEventListener } from '../scan-driver.port.js';

/**
 * Hands a socket's events to its listener in the order Baileys raised them. An event that must
 * wait for something (a group message whose name is not cached waits for the group's metadata:
 * `later`) holds back whatever comes after it; while nothing waits, every event is handed over
 * at once, in the same call stack as Baileys raised it.
 */
export class EventOrder {
  private queued = 0;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly listener: ScanEventListener,
    /** A mapping (or the listener) failed on a queued event: reported, and the queue goes on. */
    private readonly onError: (error: unknown) => void,
  ) {}

  /** `stored`: the event's share of its batch's receipts (`ScanEventListener`). */
  emit(event: ScanEvent, stored?: () => void): void {
    if (this.queued === 0) this.listener(event, stored);
    else this.enqueue(() => event, stored);
  }

  /**
   * Emits what `work` answers, in order with every other event: later ones wait for it. For null
   * nothing is emitted, and `stored` is called at once (there is nothing to store).
   */
  later(work: () => Promise<ScanEvent | null>, stored?: () => void): void {
    this.enqueue(work, stored);
  }

  private enqueue(work: () => Promise<ScanEvent | null> | ScanEvent | null, stored?: () => void): void {
    this.queued += 1;
    this.tail = this.tail
      .then(async () => {
        const event = await work();
        if (event) this.listener(event, stored);
        else stored?.();
      })
      .catch(this.onError)
      .finally(() => {
        this.queued -= 1;
      });
  }
}
