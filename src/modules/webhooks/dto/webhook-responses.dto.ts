import { ApiProperty } from '@nestjs/swagger';
import { CHANNEL_NAMES } from '../../channels/channel-gateway.port.js';
import { ATTEMPT_STATUSES } from '../entities/webhook-attempt.entity.js';
import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT } from '../events/webhook-event.catalogue.js';

// `scan.chat`, `meta.chat`, or `webhook.test`: what a delivery log's attempt may name.
const ATTEMPT_EVENTS = [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT].map((name) => `\`${name}\``);
const ATTEMPT_EVENT_DESCRIPTION = `${ATTEMPT_EVENTS.slice(0, -1).join(', ')}, or ${ATTEMPT_EVENTS.at(-1)}`;

export class WebhookResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({
    example: 'https://user:***@hooks.example.com/in',
    description:
      'The endpoint, with any credential masked: a password is shown as `***` (`https://user:***@host/…`), and so is a user name without a password (often a token: `https://***@host/…`). Deliveries use the real URL. Send it back unchanged in a PATCH to keep the stored credential.',
  })
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENTS, isArray: true })
  events: string[];

  @ApiProperty()
  enabled: boolean;

  @ApiProperty({
    enum: CHANNEL_NAMES,
    isArray: true,
    nullable: true,
    description: 'The channels whose events it receives (`scan`, `meta`); null: every channel.',
  })
  channels: string[] | null;

  @ApiProperty({ description: 'Whether events of group chats reach it; events with no group notion always do.' })
  include_groups: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the service disabled it: `the endpoint answered 410 Gone` or `every delivery attempt failed for 3 days`; null otherwise.',
  })
  disabled_reason: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ format: 'date-time', type: String, nullable: true, description: 'Since when every attempt has failed; null after a success.' })
  failing_since: string | null;
}

export class WebhookSecretResponse {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: '`whsec_` + base64 of 32 random bytes.' })
  secret: string;
}

export class WebhookStatsResponse {
  @ApiProperty({ description: 'Deliveries not yet delivered nor failed for good (due, waiting for a retry, or held for media).' })
  pending: number;

  @ApiProperty({ description: 'Of `pending`: held until their message’s media is stored.' })
  held: number;

  @ApiProperty({
    description: 'Delivered within the last `window_hours`. Test events (`POST /api/webhooks/{id}/test`) are not counted here, nor in any other figure.',
  })
  delivered: number;

  @ApiProperty({ description: 'Failed for good within the last `window_hours`; test events are not counted.' })
  failed: number;

  @ApiProperty({ description: 'Age in seconds of the oldest pending delivery; 0 when none.' })
  oldest_pending_age_seconds: number;

  @ApiProperty({ example: 24 })
  window_hours: number;
}

export class DeliveryAttemptResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid', description: 'The `webhook-id` header: the same on every attempt of a delivery.' })
  delivery_id: string;

  @ApiProperty({ example: WEBHOOK_EVENTS[0], description: ATTEMPT_EVENT_DESCRIPTION })
  event: string;

  @ApiProperty({ enum: ATTEMPT_STATUSES, description: '`retrying`: failed, another attempt is scheduled; `failed`: failed, no more attempts.' })
  status: string;

  @ApiProperty({ description: '1 for the first attempt of the delivery.' })
  attempt: number;

  @ApiProperty({ type: Number, nullable: true, description: 'The endpoint’s HTTP status; null when no answer came.' })
  response_status: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'HTTP 500' })
  error: string | null;

  @ApiProperty()
  duration_ms: number;

  @ApiProperty({ format: 'date-time', description: 'When the attempt started.' })
  created_at: string;

  @ApiProperty({ format: 'date-time', type: String, nullable: true, description: 'When the endpoint accepted it; null unless `delivered`.' })
  delivered_at: string | null;
}
