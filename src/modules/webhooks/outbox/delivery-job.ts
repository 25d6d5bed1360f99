import type { JobsOptions } from 'bullmq';

/**
 * Payload of a `webhook-delivery` job: an endpoint, ids only. The outbox rows in Postgres are the
 * queue and the source of truth; a job only says "this endpoint may have due deliveries".
 */
export interface DrainJob {
  workspaceId: string;
  webhookId: string;
}

/** Drains the endpoint's due deliveries (see WebhookDeliveryProcessor). */
export const DRAIN = 'drain';
/** Wakes the endpoint's drain when a retry is due (a delayed job: jobId `retry-<delivery>-<attempt>`). */
export const RETRY = 'retry';

/**
 * A job lives only while it waits or runs: removed when done or failed. BullMQ retries only
 * unexpected errors (the database away); HTTP failures follow each delivery's own schedule.
 */
const JOB_OPTIONS: JobsOptions = {
  removeOnComplete: true,
  removeOnFail: true,
  attempts: 5,
  backoff: { type: 'exponential', delay: 5000 },
};

/**
 * One drain job per endpoint, coalescing: with `keepLastIfActive` BullMQ keeps at most one job
 * running and one waiting per endpoint, across processes. A wake-up while the drain waits is
 * dropped (the drain will see the new rows); one while it runs is kept and runs after it (the
 * running drain may have claimed before those rows were committed). No two drains of an
 * endpoint ever run at once, so an endpoint never has more than WEBHOOK_ENDPOINT_CONCURRENCY
 * attempts in flight.
 */
export function drainJob(endpoint: DrainJob): { name: string; data: DrainJob; opts: JobsOptions } {
  return {
    name: DRAIN,
    data: { workspaceId: endpoint.workspaceId, webhookId: endpoint.webhookId },
    opts: { ...JOB_OPTIONS, deduplication: { id: endpoint.webhookId, keepLastIfActive: true } },
  };
}

/**
 * The wake-up of a delivery's retry, delayed until it is due; its id cannot collide with the
 * drain's deduplication, and a second one for the same attempt is a no-op.
 */
export function retryJob(endpoint: DrainJob, deliveryId: string, attempt: number, delayMs: number): { name: string; data: DrainJob; opts: JobsOptions } {
  return {
    name: RETRY,
    data: { workspaceId: endpoint.workspaceId, webhookId: endpoint.webhookId },
    opts: { ...JOB_OPTIONS, jobId: `retry-${deliveryId}-${attempt}`, delay: Math.max(0, delayMs) },
  };
}
