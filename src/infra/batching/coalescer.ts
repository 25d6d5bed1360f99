/**
 * Coalesces calls made close together (within `windowMs` of the first, or in the same turn of the
 * event loop when it is 0; at most `maxBatch`) into one `run(items)`, so concurrent callers share
 * one database or Redis round trip instead of taking one each. Every caller gets the result at
 * its own index, or the batch's error. A lone call waits at most `windowMs`.
 */
export class Coalescer<I, O> {
  private pending: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxBatch = 100,
    private readonly windowMs = 0,
  ) {}

  call(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        if (this.windowMs > 0) setTimeout(() => this.flush(), this.windowMs);
        else setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.run(batch.map((entry) => entry.item)).then(
      (results) => batch.forEach((entry, index) => entry.resolve(results[index]!)),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
  }
}
