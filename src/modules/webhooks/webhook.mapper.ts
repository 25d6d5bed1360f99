import type { WebhookRecord } from './configs/webhook.repository.js';
import { maskUrl } from './configs/webhook-url.credentials.js';
import type { AttemptRecord } from './delivery/delivery.types.js';
import type { DeliveryAttemptResponse, WebhookResponse } from './dto/webhook-responses.dto.js';

const iso = (date: Date | string): string => new Date(date).toISOString();

export function toWebhookResponse(webhook: WebhookRecord): WebhookResponse {
  return {
    id: webhook.id,
    // Stored masked already; masked again for a row written straight to the database.
    url: maskUrl(webhook.url),
    events: webhook.events,
    enabled: webhook.enabled,
    channels: webhook.channels,
    include_groups: webhook.includeGroups,
    disabled_reason: webhook.disabledReason,
    created_at: iso(webhook.createdAt),
    updated_at: iso(webhook.updatedAt),
    failing_since: webhook.failingSince ? iso(webhook.failingSince) : null,
  };
}

export function toAttemptResponse(attempt: AttemptRecord): DeliveryAttemptResponse {
  const started = new Date(attempt.createdAt);
  return {
    id: attempt.id,
    delivery_id: attempt.deliveryId,
    event: attempt.event,
    status: attempt.status,
    attempt: attempt.attempt,
    response_status: attempt.responseStatus,
    error: attempt.error,
    duration_ms: attempt.durationMs,
    created_at: started.toISOString(),
    delivered_at: attempt.status === 'delivered' ? new Date(started.getTime() + attempt.durationMs).toISOString() : null,
  };
}
