import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { throttledWarning } from '../../../infra/logging/throttled-warning.js';
import { PeriodicRound } from '../../../infra/time/periodic-round.js';
import { ConversationStatusService } from './conversation-status.service.js';

/**
 * Opens snoozed conversations whose `snoozed_until` has come, in every worker process, every
 * SNOOZE_SWEEP_INTERVAL_MS (15 s): so a snooze ends at most one interval late. Several processes
 * sweeping at once never wake one conversation twice (the wake-up locks it SKIP LOCKED and
 * re-checks that it is still snoozed and due).
 */
@Injectable()
export class SnoozeWakeSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SnoozeWake');
  private readonly warn = throttledWarning(this.logger);
  private readonly rounds = new PeriodicRound(
    () => this.sweep(),
    (error) => this.warn('snooze wake-up sweep', error),
  );

  constructor(
    private readonly config: AppConfig,
    private readonly statuses: ConversationStatusService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.runsWorkers) this.rounds.start(this.config.snoozeSweepIntervalMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rounds.stop();
  }

  /** One round (also called by tests): how many conversations it opened. */
  async sweep(): Promise<number> {
    const woken = await this.statuses.wakeDue();
    if (woken) this.logger.debug({ woken }, 'snoozed conversations opened');
    return woken;
  }
}
