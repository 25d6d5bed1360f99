/**
 * A round of work repeated every `intervalMs` in the background (the sweepers of the outbox and
 * of waiting message updates): never two rounds at once (a round longer than the interval skips
 * the ticks it overlaps), a failed round reported through `onError` and retried at the next tick,
 * and `stop()` waits for the round in flight, so a process shutting down never leaves one half
 * done. The timer does not keep the process alive.
 */
export class PeriodicRound {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly round: () => Promise<unknown>,
    private readonly onError: (error: Error) => void,
  ) {}

  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.running ??= this.round()
        .then(() => undefined)
        .catch((error: unknown) => this.onError(error instanceof Error ? error : new Error(String(error))))
        .finally(() => (this.running = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
