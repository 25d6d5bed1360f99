import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { AppConfig } from '../../../infra/config/app-config.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import { AutomationEngine } from './automation-engine.js';
import { SWEEP_JOB } from './automation-queue.js';
import type { TriggerRef } from './automation-trigger.repository.js';

const SWEEP_EVERY_MS = 30_000;

/**
 * The `automations` queue: `run` jobs (one per new inbound message that may trigger something)
 * and the `sweep` job, repeated by a BullMQ job scheduler, so exactly one worker of the cluster
 * sweeps at a time.
 */
@Processor(QueueName.Automations)
export class AutomationsProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('Automations');

  constructor(
    private readonly config: AppConfig,
    private readonly engine: AutomationEngine,
    @InjectQueue(QueueName.Automations) private readonly queue: Queue,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (!this.config.runsWorkers) return;
    this.worker.concurrency = this.config.workerConcurrency;
    // Not awaited: while Redis is away the command waits for it, and start-up must not. Triggers
    // wait in Postgres meanwhile. The first sweep comes one interval after start-up, not at once: a
    // job that arrives while a process is still starting (or already stopping) is no use to anyone.
    void this.queue
      .upsertJobScheduler('automations-sweep', { every: SWEEP_EVERY_MS, startDate: Date.now() + SWEEP_EVERY_MS }, { name: SWEEP_JOB })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not schedule the automations sweeper'));
  }

  async process(job: Job<TriggerRef>): Promise<void> {
    if (job.name === SWEEP_JOB) return this.engine.sweep();
    return this.engine.run(job.data.workspaceId, job.data.messageId);
  }

  /** After the last attempt the trigger is given up, so the sweeper does not bring it back. */
  @OnWorkerEvent('failed')
  async onFailed(job: Job<TriggerRef> | undefined, error: Error): Promise<void> {
    if (!job || job.name === SWEEP_JOB || job.attemptsMade < (job.opts.attempts ?? 1)) return;
    this.logger.error({ err: error, workspaceId: job.data.workspaceId, messageId: job.data.messageId }, 'automations failed for good on a message');
    await this.engine.abandon(job.data.workspaceId, job.data.messageId).catch(() => undefined);
  }
}
