import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import { type WebhookRecord, WebhookRepository } from '../configs/webhook.repository.js';
import { WEBHOOK_NOT_FOUND } from '../configs/webhook-configs.service.js';
import type { DeliveryAttemptResponse, WebhookStatsResponse } from '../dto/webhook-responses.dto.js';
import { toAttemptResponse } from '../webhook.mapper.js';
import { DeliveryAttemptService, TEST_EVENT } from './delivery-attempt.service.js';
import { DeliveryRepository } from './delivery.repository.js';
import { DeliveryLogRepository } from './delivery-log.repository.js';

export const DELIVERY_NOT_FOUND = 'delivery not found';
/** The delivery log lists this many attempts, newest first. */
const LOG_SIZE = 100;
/** Delivered and failed figures of the stats cover this many hours. */
export const STATS_WINDOW_HOURS = 24;

/** The delivery log, replays, test events and the outbox figures of a workspace. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly deliveryLog: DeliveryLogRepository,
    private readonly attempts: DeliveryAttemptService,
  ) {}

  async log(workspaceId: string, webhookId: string): Promise<DeliveryAttemptResponse[]> {
    await this.webhook(workspaceId, webhookId);
    return (await this.deliveryLog.attempts(workspaceId, webhookId, LOG_SIZE)).map(toAttemptResponse);
  }

  /** Sends the delivery again now, with the same `webhook-id`; answers the attempt. */
  async retry(workspaceId: string, webhookId: string, deliveryId: string): Promise<DeliveryAttemptResponse> {
    await this.webhook(workspaceId, webhookId);
    const target = (await this.deliveryLog.belongsTo(workspaceId, webhookId, deliveryId)) ? await this.deliveries.load(workspaceId, deliveryId) : null;
    if (!target) throw ApiError.notFound(DELIVERY_NOT_FOUND);
    const attempt = await this.attempts.manual(target);
    // Only a delivery deleted while it was being sent (its webhook deleted) records nothing.
    if (!attempt) throw ApiError.notFound(DELIVERY_NOT_FOUND);
    return toAttemptResponse(attempt);
  }

  async test(workspaceId: string, webhookId: string): Promise<DeliveryAttemptResponse> {
    const webhook = await this.webhook(workspaceId, webhookId);
    const attempt = await this.attempts.test(workspaceId, webhook);
    // Deleted while the test was being sent: nothing was recorded.
    if (!attempt) throw ApiError.notFound(WEBHOOK_NOT_FOUND);
    return toAttemptResponse(attempt);
  }

  async stats(workspaceId: string): Promise<WebhookStatsResponse> {
    // A test event is a probe of the endpoint, not traffic: it would skew the delivery rate.
    const figures = await this.deliveryLog.stats(workspaceId, STATS_WINDOW_HOURS, TEST_EVENT);
    return {
      pending: figures.pending,
      held: figures.held,
      delivered: figures.delivered,
      failed: figures.failed,
      oldest_pending_age_seconds: figures.oldestPendingAge,
      window_hours: STATS_WINDOW_HOURS,
    };
  }

  private async webhook(workspaceId: string, webhookId: string): Promise<WebhookRecord> {
    const webhook = await this.webhooks.find(workspaceId, webhookId);
    if (!webhook) throw ApiError.notFound(WEBHOOK_NOT_FOUND);
    return webhook;
  }
}
