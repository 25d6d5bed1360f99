import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { throttledWarning } from '../../../infra/logging/throttled-warning.js';
import { PeriodicRound } from '../../../infra/time/periodic-round.js';
import { OutboxRepository } from './outbox.repository.js';
import { WebhookOutbox } from './webhook-outbox.service.js';

// Deliveries held for a media file longer than this go out without it (its download never
// settled: a lost job, a crash before the reference was saved).
export const HOLD_LIMIT_MS = 60 * 60 * 1000;
// Finished events (with their deliveries and attempts) are kept this long for the log and replays.
export const RETENTION_DAYS = 30;
const BATCH = 1000;

/**
 * The outbox's safety net, in every worker process, every WEBHOOK_SWEEP_INTERVAL_MS:
 * - wakes the drain of each endpoint with a pending delivery overdue by more than one interval
 *   and not claimed (its wake-up was lost: Redis flushed or failed over, the process killed
 *   between commit and queueing or mid-batch, a job that failed for good on an infrastructure
 *   error, a drain wake mark left by a process killed while it added the job). A wake-up of an
 *   endpoint whose drain waits is a no-op;
 * - releases deliveries held for media longer than HOLD_LIMIT_MS;
 * - deletes finished events older than RETENTION_DAYS.
 * Several workers sweeping at once only repeat (coalesced) wake-ups.
 */
@Injectable()
export class OutboxSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxSweeper');
  private readonly warn = throttledWarning(this.logger);
  private readonly rounds = new PeriodicRound(
    () => this.sweep(),
    (error) => this.warn('outbox sweep', error),
  );

  constructor(
    private readonly config: AppConfig,
    private readonly repository: OutboxRepository,
    private readonly outbox: WebhookOutbox,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.runsWorkers) this.rounds.start(this.config.webhooks.sweepIntervalMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rounds.stop();
  }

  /** One pass (also called by tests and operators' tools). */
  async sweep(): Promise<{ requeued: number; released: number; pruned: number }> {
    const released = await this.repository.releaseStale(HOLD_LIMIT_MS, BATCH);
    await this.outbox.wake(released);
    const overdue = await this.repository.overdue(this.config.webhooks.sweepIntervalMs, BATCH);
    await this.outbox.wake(overdue);
    const pruned = await this.repository.prune(RETENTION_DAYS, BATCH);
    if (overdue.length) this.logger.debug({ endpoints: overdue.length }, 'woke endpoints with overdue webhook deliveries');
    return { requeued: overdue.length, released: released.length, pruned };
  }
}
