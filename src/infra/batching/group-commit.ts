/** One item's outcome in a batch: batches settle their items one by one (one bad item fails alone). */
export type Settled<O> = { ok: true; value: O } | { ok: false; error: unknown };

export interface GroupCommitOptions {
  /** Items per batch at most. 1: every call runs alone (no grouping). */
  maxBatch: number;
  /** Batches running at once; while all are busy, new items wait and the next batch grows. */
  maxInFlight: number;
  /**
   * While a batch runs, another starts only once this many items wait (otherwise when none runs):
   * a batch has a fixed cost, so small batches side by side cost more than they gain (default 1).
   */
  minBatchWhileBusy?: number;
  /**
   * How long an item waits for the running batches under `minBatchWhileBusy` at most: then its
   * batch starts beside them whatever its size, so one slow batch (a lock wait, a stalled
   * connection) holds the others up that long only (default: no bound).
   */
  maxWaitWhileBusyMs?: number;
}

interface Entry<I, O> {
  item: I;
  /** When the item arrived (performance.now()). */
  since: number;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: concurrent callers share one `run(items)` (one transaction) instead of taking one
 * each. There is no fixed window: a caller on an idle service (nothing running, nothing queued)
 * starts at once, alone. Otherwise a batch starts on the next turn of the event loop
 * (setImmediate: the callers of the same turn join it) when a slot is free (fewer than
 * `maxInFlight` batches run) and either no batch runs, or at least `minBatchWhileBusy` callers
 * wait, or the first of them waited `maxWaitWhileBusyMs`. Until then callers queue up, and the
 * next batch takes them all (up to `maxBatch`): batches grow with the load, exactly while there
 * is load. Each caller gets its own item's outcome.
 */
export class GroupCommit<I, O> {
  private pending: Entry<I, O>[] = [];
  private inFlight = 0;
  private scheduled = false;
  private wake: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly run: (items: I[]) => Promise<Settled<O>[]>,
    private options: GroupCommitOptions,
  ) {}

  /** Changes the batch limits (benchmarks compare grouping with one transaction per call). */
  configure(options: Partial<GroupCommitOptions>): void {
    this.options = { ...this.options, ...options };
    // Waiting items under the new limits (a shorter bound than the one their timer was set for).
    clearTimeout(this.wake);
    this.wake = undefined;
    this.schedule();
  }

  call(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const idle = this.inFlight === 0 && this.pending.length === 0;
      this.pending.push({ item, since: performance.now(), resolve, reject });
      // Alone on an idle service: start at once, as if there were no grouping at all; the callers
      // that come while it runs form the next group.
      if (idle) this.flush();
      else this.schedule();
    });
  }

  /**
   * Several callers that arrived at the same moment (one turn of the event loop), in this order:
   * as `call` for each, except that on an idle service the batch that starts at once takes them all
   * (up to `maxBatch`) instead of the first alone. A burst of callers resumed together (the callers
   * of a group that just finished, calling again) thus forms one group, not a lone one and the rest.
   */
  callMany(items: readonly I[]): Promise<O>[] {
    const idle = this.inFlight === 0 && this.pending.length === 0;
    const since = performance.now();
    const results = items.map((item) => new Promise<O>((resolve, reject) => void this.pending.push({ item, since, resolve, reject })));
    if (idle) this.flush();
    else this.schedule();
    return results;
  }

  private done(): void {
    this.inFlight--;
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.pending.length === 0 || this.inFlight >= this.options.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Looks at the queue again after `ms` (the bound of a wait for running batches). */
  private wakeAfter(ms: number): void {
    // Beyond a timer's range (about 24.8 days) Node fires at once: no bound at all, then.
    if (this.wake || !(ms <= 2 ** 31 - 1)) return;
    this.wake = setTimeout(() => {
      this.wake = undefined;
      this.schedule();
    }, Math.ceil(ms));
    this.wake.unref?.();
  }

  private flush(): void {
    while (this.pending.length > 0 && this.inFlight < this.options.maxInFlight) {
      if (this.inFlight > 0 && this.pending.length < (this.options.minBatchWhileBusy ?? 1)) {
        const left = (this.options.maxWaitWhileBusyMs ?? Number.POSITIVE_INFINITY) - (performance.now() - this.pending[0]!.since);
        if (left > 0) {
          this.wakeAfter(left);
          return;
        }
      }
      const batch = this.pending.splice(0, Math.max(1, this.options.maxBatch));
      this.inFlight++;
      // The slot is free before any caller resumes: a caller that calls again at once finds the
      // service idle (and starts at once) when nothing else runs.
      this.run(batch.map((entry) => entry.item)).then(
        (results) => {
          this.done();
          batch.forEach((entry, index) => {
            const result = results[index];
            if (!result) entry.reject(new Error('group commit: no result for an item'));
            else if (result.ok) entry.resolve(result.value);
            else entry.reject(result.error);
          });
        },
        (error: unknown) => {
          this.done();
          batch.forEach((entry) => entry.reject(error));
        },
      );
    }
  }
}
