import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '../../../infra/config/app-config.js';
import { parkJob } from '../../../infra/queue/park-job.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import type { DeliveryJob } from '../outbox/delivery-job.js';
import { WebhookOutbox } from '../outbox/webhook-outbox.service.js';
import { DeliveryAttemptService } from './delivery-attempt.service.js';
import { DeliveryRepository, type DeliveryTarget } from './delivery.repository.js';
import { EndpointSlots } from './endpoint-slots.js';

// A job may fire this much before its delivery's time (timers of Redis and Node differ a little).
const EARLY_TOLERANCE_MS = 1000;
// A job sends, besides its own, up to this many due deliveries of the same endpoint, one after
// the other in its endpoint slot: with a backlog, one job (one claim, one BullMQ round) per
// batch instead of per delivery.
const BATCH_MORE = 24;
// A batch sends no further delivery once it has run this long (a slow endpoint's batch ends soon).
const BATCH_BUDGET_MS = 2000;
// A job that could not claim its own delivery although it looked due (another job's claim raced
// it) looks again after this long.
const RACE_WAIT_MS = 500;

/**
 * Runs due deliveries (job id = delivery id). Idempotent: a delivery no longer pending is done.
 * A job claims its delivery and, with it, up to BATCH_MORE other due deliveries of the same
 * endpoint (one claim and one BullMQ job per batch instead of per delivery when there is a
 * backlog); it removes their jobs (they would only find their delivery claimed), sends the batch
 * in order in its one endpoint slot and stops at the first failure. What it claimed and did not
 * finish gets its job back (delayed until its retry, or now when unsent). A claim
 * (`claimed_until`) lasts the batch's budget plus one timeout: the claims of a job killed
 * meanwhile expire and the sweeper queues those deliveries again. A failed attempt that the
 * policy retries moves the job to the delayed set until the retry is due; the delivery row holds
 * the same time, so the sweeper can rebuild the job if Redis loses it.
 */
@Processor(QueueName.WebhookDelivery)
export class WebhookDeliveryProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly config: AppConfig,
    private readonly repository: DeliveryRepository,
    private readonly attempts: DeliveryAttemptService,
    private readonly slots: EndpointSlots,
    private readonly outbox: WebhookOutbox,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (this.config.runsWorkers) this.worker.concurrency = this.config.webhooks.concurrency;
  }

  async process(job: Job<DeliveryJob>, token?: string): Promise<void> {
    const { workspaceId, deliveryId, webhookId } = job.data;
    if (!(await this.slots.acquire(webhookId))) return this.delay(job, Date.now() + this.slots.waitMs(webhookId), token);
    const acquired = Date.now();
    let parkAt: number | null = null;
    try {
      const claimMs = BATCH_BUDGET_MS + this.config.webhooks.timeoutMs + 5000;
      const batch = await this.repository.claim(workspaceId, deliveryId, webhookId, BATCH_MORE, EARLY_TOLERANCE_MS, claimMs);
      if (batch.length === 0) parkAt = await this.notClaimed(workspaceId, deliveryId);
      else if (!batch[0]!.enabled) await this.repository.failWaiting(workspaceId, webhookId, 'webhook disabled');
      else parkAt = await this.run(batch);
    } finally {
      this.slots.release(webhookId, Date.now() - acquired);
    }
    if (parkAt !== null) await this.delay(job, parkAt, token);
  }

  /** Why the job's own delivery could not be claimed: when to look again, or null when it is done. */
  private async notClaimed(workspaceId: string, deliveryId: string): Promise<number | null> {
    const target = await this.repository.load(workspaceId, deliveryId);
    if (!target || target.status !== 'pending') return null;
    // Another job claimed it and is sending it: that job queues it again if it is not done.
    if (target.claimedUntil && new Date(target.claimedUntil).getTime() > Date.now()) return null;
    return Math.max(new Date(target.nextAttemptAt).getTime(), Date.now() + RACE_WAIT_MS);
  }

  /**
   * Sends a claimed batch in order (own delivery first), stopping at the first failure: the rest
   * is unclaimed and queued again. Returns when the own job must run again (its retry), or null.
   */
  private async run(batch: DeliveryTarget[]): Promise<number | null> {
    const [own, ...others] = batch as [DeliveryTarget, ...DeliveryTarget[]];
    // Meanwhile the batch goes out (a job of these running this instant is not removed; it finds its delivery claimed).
    const removed = this.outbox.removeJobs(others.map((target) => target.id));
    const started = Date.now();
    const attempted: { target: DeliveryTarget; retryAt: Date | null; recorded: Promise<boolean> }[] = [];
    for (const target of batch) {
      if (attempted.length > 0 && Date.now() - started > BATCH_BUDGET_MS) break;
      const outcome = await this.attempts.scheduled(target);
      attempted.push({ target, retryAt: outcome.nextAttemptAt, recorded: outcome.recorded });
      if (outcome.verdict.outcome !== 'delivered') break;
    }
    const [done] = await Promise.all([Promise.all(attempted.map((attempt) => attempt.recorded)), removed]);
    const unsent = await this.repository.unclaim(own.workspaceId, batch.slice(attempted.length).map((target) => target.id));
    // Claimed deliveries to retry (their attempt recorded) get their job back, delayed; unsent ones now.
    const retries = attempted
      .filter((attempt, index) => attempt.target !== own && attempt.retryAt && done[index])
      .map(({ target, retryAt }) => ({ id: target.id, webhookId: target.webhookId, workspaceId: target.workspaceId, at: retryAt }));
    await this.outbox.requeue([...retries, ...unsent]);
    const ownRetry = attempted[0]!.retryAt;
    return ownRetry && done[0] ? ownRetry.getTime() : null;
  }

  /** Parks this job until `at` (not an attempt, not a failure). */
  private delay(job: Job<DeliveryJob>, at: number, token: string | undefined): Promise<never> {
    return parkJob(this.worker, job, at, token);
  }
}
