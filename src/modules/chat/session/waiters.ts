/** Callers waiting for the next value of something, each for at most its own time. */
export class Waiters<T> {
  private readonly pending = new Set<(value: T) => void>();

  /** The next value given to `notify`, or `onTimeout` after `timeoutMs`. */
  next(timeoutMs: number, onTimeout: T): Promise<T> {
    return new Promise((resolve) => {
      const done = (value: T): void => {
        clearTimeout(timer);
        this.pending.delete(done);
        resolve(value);
      };
      const timer = setTimeout(() => done(onTimeout), timeoutMs);
      this.pending.add(done);
    });
  }

  notify(value: T): void {
    for (const waiter of [...this.pending]) waiter(value);
  }
}

/** `promise`, or a rejection once `ms` have passed without its answer. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
