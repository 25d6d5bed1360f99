/** Payload of a `webhook-delivery` job (job id = delivery id): ids only. */
export interface DeliveryJob {
  workspaceId: string;
  deliveryId: string;
  /** Picks the per-endpoint slot before anything is loaded. */
  webhookId: string;
}

/**
 * A job lives only while its delivery is pending: removed when done or failed, so the sweeper
 * (or a replay) can always queue the same id again. BullMQ retries only unexpected errors (the
 * database away); HTTP failures follow the delivery's own schedule (job moved to delayed).
 */
export const DELIVERY_JOB_OPTIONS = {
  removeOnComplete: true,
  removeOnFail: true,
  attempts: 5,
  backoff: { type: 'exponential', delay: 5000 },
} as const;
