import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '../../../infra/config/app-config.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import { MetaCallbackRepository } from './meta-callback.repository.js';
import { callbackJobId, type MetaCallbackJob } from './meta-callback.service.js';

const SWEEP_INTERVAL_MS = 60_000;
// Younger callbacks are being enqueued by the process that stored them.
const GRACE_MS = 10_000;
const BATCH = 500;
// The provider retries a callback for up to 7 days: its hash must outlive that.
const RETENTION_MS = 8 * 24 * 3600 * 1000;

/**
 * Callbacks stored but never enqueued (Redis away when they arrived, or the process died between
 * the insert and the enqueue) get their job here: once when a worker starts, then every minute.
 * The job id is the callback's, so a callback whose job exists is not enqueued twice. Also
 * forgets callbacks older than the provider's retry window.
 */
@Injectable()
export class MetaCallbackSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('MetaCallback');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly repository: MetaCallbackRepository,
    @InjectQueue(QueueName.MetaCallback) private readonly queue: Queue<MetaCallbackJob>,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runsWorkers) return;
    void this.sweep(new Date()).catch((error: unknown) => this.logger.warn({ err: error }, 'callback sweep failed'));
    this.timer = setInterval(() => {
      void this.sweep(new Date(Date.now() - GRACE_MS)).catch((error: unknown) => this.logger.warn({ err: error }, 'callback sweep failed'));
    }, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Enqueues every callback received before `before` that is still waiting; answers how many. */
  async sweep(before: Date): Promise<number> {
    let enqueued = 0;
    let after: string | null = null;
    for (;;) {
      const page = await this.repository.waiting(before, after, BATCH);
      if (page.length === 0) break;
      await this.queue.addBulk(page.map((id) => ({ name: 'callback', data: { callbackId: id }, opts: { jobId: callbackJobId(id) } })));
      enqueued += page.length;
      after = page[page.length - 1]!;
    }
    await this.repository.purge(new Date(Date.now() - RETENTION_MS));
    return enqueued;
  }
}
