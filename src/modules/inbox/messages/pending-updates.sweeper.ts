import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { throttledWarning } from '../../../infra/logging/throttled-warning.js';
import { PeriodicRound } from '../../../infra/time/periodic-round.js';
import { MessageUpdatesMetrics } from './message-updates.metrics.js';
import { MessageUpdatesService } from './message-updates.service.js';
import { PendingMessageUpdatesRepository } from './pending-message-updates.repository.js';
import { PENDING_UPDATES_OPTIONS, type PendingUpdatesOptions } from './pending-updates.options.js';

const BATCH = 500;

/**
 * Applies the reactions, edits and revokes that arrived before their message, in every worker
 * process, every `sweepIntervalMs` (1 s): rather than ingest looking for waiting updates with each
 * new message (a query per message on the hot path), waiting ones are found here, a second late
 * at most. While none waits a round is one `SELECT EXISTS`. Each message's updates apply in their
 * own transaction with the message's row locked, SKIP LOCKED, so two processes never apply one
 * twice and one that fails (its message's hooks) holds back no other. Updates whose message did
 * not come within `ttlMs` are dropped and counted (`inbox_message_updates_dropped_total{kind}`).
 */
@Injectable()
export class PendingUpdatesSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PendingUpdates');
  private readonly warn = throttledWarning(this.logger);
  private readonly rounds = new PeriodicRound(
    () => this.sweep(),
    (error) => this.warn('pending message updates sweep', error),
  );

  constructor(
    private readonly config: AppConfig,
    private readonly pending: PendingMessageUpdatesRepository,
    private readonly updates: MessageUpdatesService,
    private readonly metrics: MessageUpdatesMetrics,
    @Inject(PENDING_UPDATES_OPTIONS) private readonly options: PendingUpdatesOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.runsWorkers) this.rounds.start(this.options.sweepIntervalMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rounds.stop();
  }

  /** One round: what waits for a stored message is applied, what waited too long dropped. */
  async sweep(): Promise<{ applied: number; dropped: number }> {
    if (!(await this.pending.any())) return { applied: 0, dropped: 0 };
    let applied = 0;
    for (const target of await this.pending.ready(BATCH)) {
      try {
        applied += await this.updates.applyWaiting(target);
      } catch (error) {
        // Left waiting: the next round tries again, until the wait ends.
        this.warn('applying a waiting message update', error as Error);
      }
    }
    // After applying: an update whose message came just in time is applied, not dropped.
    const dropped = await this.pending.dropExpired(this.options.ttlMs, BATCH);
    if (dropped.length > 0) {
      this.metrics.droppedUpdates(dropped);
      this.logger.warn({ dropped: dropped.length }, `message updates dropped: their message did not arrive within ${this.options.ttlMs} ms`);
    }
    return { applied, dropped: dropped.length };
  }
}
