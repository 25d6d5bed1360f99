/**
 * At most `limit` calls of `run` at once; the others wait their turn, first come first served.
 * For work that takes a pooled database connection each, so that a burst of callers (every slot
 * of a worker at once) leaves the rest of the pool to everyone else.
 */
export class Gate {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      // Hands the place over to the next caller (the count unchanged), or frees it.
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    }
  }
}
