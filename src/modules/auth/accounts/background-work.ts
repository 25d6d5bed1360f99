import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';

/**
 * Work a response must not wait for, because how long it takes would tell something (whether an
 * account exists). Nobody awaits it, so failures are logged rather than thrown; a shutdown lets
 * it finish before the database pool and the mail transport close.
 */
@Injectable()
export class BackgroundWork implements BeforeApplicationShutdown {
  private readonly logger = new Logger('BackgroundWork');
  private readonly inFlight = new Set<Promise<void>>();

  /** Starts `work` after the current call returns; `failure` is the log message if it throws. */
  run(failure: string, work: () => Promise<void>): void {
    const running = Promise.resolve()
      .then(work)
      .catch((error: unknown) => this.logger.error({ err: error }, failure));
    this.inFlight.add(running);
    void running.finally(() => this.inFlight.delete(running));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
