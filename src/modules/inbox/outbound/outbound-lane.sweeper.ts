import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { throttledWarning } from '../../../infra/logging/throttled-warning.js';
import { PeriodicRound } from '../../../infra/time/periodic-round.js';
import { OutboundQueueRepository } from './outbound-queue.repository.js';
import { OutboundQueueService } from './outbound-queue.service.js';

/** How often workers wake lanes whose pump is gone. */
export const LANE_SWEEP_INTERVAL_MS = 5_000;

/**
 * Wakes every number with a due send and no live pump (its worker died, Redis lost the job, the
 * wake-up after a commit failed), in every worker process: the lane's hold decides which one
 * pumps, so several sweepers never start two.
 */
@Injectable()
export class OutboundLaneSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly warn = throttledWarning(new Logger('OutboundLane'));
  private readonly rounds = new PeriodicRound(
    () => this.sweep(),
    (error) => this.warn('outbound lane sweep', error),
  );

  constructor(
    private readonly config: AppConfig,
    private readonly rows: OutboundQueueRepository,
    private readonly queue: OutboundQueueService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.runsWorkers) this.rounds.start(LANE_SWEEP_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rounds.stop();
  }

  async sweep(): Promise<void> {
    for (const workspaceId of await this.rows.dueWorkspaces()) await this.queue.kick(workspaceId);
  }
}
