import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '../../../infra/config/app-config.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import { DRAIN, type DrainJob } from '../outbox/delivery-job.js';
import { DrainWakeMarks } from '../outbox/drain-wake-marks.js';
import { LocalDrains } from '../outbox/local-drains.js';
import { WebhookOutbox } from '../outbox/webhook-outbox.service.js';
import { DeliveryAttemptService } from './delivery-attempt.service.js';
import { DeliveryRepository } from './delivery.repository.js';
import { EndpointDrain } from './endpoint-drain.js';

// A drain claims this many due deliveries of its endpoint at a time (one claim statement; the
// records of the delivered ones share statements too).
const BATCH = 100;
// A claimed delivery not started within this long is given back and claimed afresh (a slow
// endpoint); the claim lasts this plus one timeout plus a margin.
const START_WITHIN_MS = 2000;
// A drain hands over (queues its endpoint's next drain and ends) after this long or this many
// attempts, so the other endpoints' drains get the worker's slots in turn.
const DRAIN_BUDGET_MS = 5000;
// A drain with nothing left to do waits this long for a wake-up from this process before it ends:
// under steady load the endpoint's next deliveries are usually committed by then, and go to the
// running drain without a BullMQ job (add, activate, finish) each time. Short, since it holds one
// of the worker's slots meanwhile.
const LINGER_MS = 25;
const DRAIN_MAX = 2000;

/**
 * A drain job of a worker that dies stays "active" until its lock expires and a stalled-job check
 * sees it, and meanwhile its endpoint's wake-ups (the sweeper's too) are deduplicated against it:
 * with BullMQ's defaults (30 s lock, a check every 30 s) an endpoint could wait up to a minute
 * after a kill -9. Locks are renewed every half lock while a job runs, so 10 s is ample for a
 * live drain and bounds the wait for a dead one at about 20 s.
 */
const DRAIN_LOCK_MS = 10_000;

/**
 * Delivery worker: a `drain` job sends the due deliveries of one endpoint (the outbox rows are
 * the queue; see EndpointDrain): claims of up to BATCH, oldest first, up to
 * WEBHOOK_ENDPOINT_CONCURRENCY attempts in flight, none started after a failure. Only one drain
 * of an endpoint runs at a time (BullMQ deduplication, see drainJob), so an endpoint never has
 * more attempts in flight than its limit, and a dead endpoint's drain holds one worker slot (of
 * WEBHOOK_CONCURRENCY) until its first failure: it never delays another endpoint. A failed
 * attempt that is retried keeps its time in the row and gets a `retry` job, delayed until then,
 * which wakes the endpoint's drain. A drain killed mid-batch leaves claims that expire; the
 * sweeper then wakes the endpoint again.
 */
@Processor(QueueName.WebhookDelivery, { lockDuration: DRAIN_LOCK_MS, stalledInterval: DRAIN_LOCK_MS })
export class WebhookDeliveryProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly config: AppConfig,
    private readonly repository: DeliveryRepository,
    private readonly attempts: DeliveryAttemptService,
    private readonly outbox: WebhookOutbox,
    private readonly local: LocalDrains,
    private readonly marks: DrainWakeMarks,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (this.config.runsWorkers) this.worker.concurrency = this.config.webhooks.concurrency;
  }

  async process(job: Job<DrainJob>): Promise<void> {
    const endpoint = { workspaceId: job.data.workspaceId, webhookId: job.data.webhookId };
    // A retry's wake-up: the endpoint's drain (coalesced with one waiting or running).
    if (job.name !== DRAIN) return this.outbox.drain([endpoint]);
    const { timeoutMs, endpointConcurrency } = this.config.webhooks;
    const limits = {
      batch: BATCH,
      lanes: endpointConcurrency,
      claimMs: START_WITHIN_MS + timeoutMs + 5000,
      startWithinMs: START_WITHIN_MS,
      lingerMs: LINGER_MS,
      budgetMs: DRAIN_BUDGET_MS,
      budgetCount: DRAIN_MAX,
    };
    // Before the first claim: a wake-up after this point must queue the next drain, since this
    // one may have claimed before that wake-up's rows were committed.
    await this.marks.started(endpoint.webhookId);
    await new EndpointDrain(endpoint, limits, { repository: this.repository, attempts: this.attempts, outbox: this.outbox, local: this.local }).run();
  }
}
