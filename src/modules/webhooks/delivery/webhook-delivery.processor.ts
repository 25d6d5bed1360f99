import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '../../../infra/config/app-config.js';
import { parkJob } from '../../../infra/queue/park-job.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import type { DeliveryJob } from '../outbox/delivery-job.js';
import { DeliveryAttemptService } from './delivery-attempt.service.js';
import { DeliveryRepository } from './delivery.repository.js';
import { EndpointSlots } from './endpoint-slots.js';

// A job may fire this much before its delivery's time (timers of Redis and Node differ a little).
const EARLY_TOLERANCE_MS = 1000;

/**
 * Runs due deliveries (job id = delivery id). Idempotent: a delivery no longer pending is done.
 * A failed attempt that the policy retries moves this same job to the delayed set until the
 * retry is due; the delivery row holds the same time, so the sweeper can rebuild the job if
 * Redis loses it.
 */
@Processor(QueueName.WebhookDelivery)
export class WebhookDeliveryProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly config: AppConfig,
    private readonly repository: DeliveryRepository,
    private readonly attempts: DeliveryAttemptService,
    private readonly slots: EndpointSlots,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (this.config.runsWorkers) this.worker.concurrency = this.config.webhooks.concurrency;
  }

  async process(job: Job<DeliveryJob>, token?: string): Promise<void> {
    const { workspaceId, deliveryId, webhookId } = job.data;
    if (!this.slots.tryAcquire(webhookId)) return this.delay(job, Date.now() + this.slots.waitMs(webhookId), token);
    const acquired = Date.now();
    try {
      const target = await this.repository.load(workspaceId, deliveryId);
      if (!target || target.status !== 'pending') return;
      if (!target.enabled) {
        await this.repository.failWaiting(workspaceId, target.webhookId, 'webhook disabled');
        return;
      }
      const due = new Date(target.nextAttemptAt).getTime();
      if (due > Date.now() + EARLY_TOLERANCE_MS) return await this.delay(job, due, token);
      const outcome = await this.attempts.scheduled(target);
      if (outcome?.nextAttemptAt) return await this.delay(job, outcome.nextAttemptAt.getTime(), token);
    } finally {
      this.slots.release(webhookId, Date.now() - acquired);
    }
  }

  /** Parks this job until `at` (not an attempt, not a failure). */
  private delay(job: Job<DeliveryJob>, at: number, token: string | undefined): Promise<never> {
    return parkJob(this.worker, job, at, token);
  }
}
