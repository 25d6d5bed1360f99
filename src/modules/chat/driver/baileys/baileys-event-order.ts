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

  emit(event: ScanEvent): void {
    if (this.queued === 0) this.listener(event);
    else this.enqueue(() => event);
  }

  /** Emits what `work` answers (nothing for null), in order with every other event: later ones wait for it. */
  later(work: () => Promise<ScanEvent | null>): void {
    this.enqueue(work);
  }

  private enqueue(work: () => Promise<ScanEvent | null> | ScanEvent | null): void {
    this.queued += 1;
    this.tail = this.tail
      .then(async () => {
        const event = await work();
        if (event) this.listener(event);
      })
      .catch(this.onError)
      .finally(() => {
        this.queued -= 1;
      });
  }
}
