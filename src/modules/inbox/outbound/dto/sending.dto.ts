import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TYPING_MODES } from '../send-settings.js';

const MIN_GAP = 'Least time between two sends of the number, in ms (200 to 600000)';
const JITTER = 'Random extra time added to each gap, 0 up to this many ms (0 to 600000)';
const PER_MINUTE = 'Sustained sends per minute (1 to 300): past the burst, sends wait for this pace';
const BURST = 'Sends the number may make at the least gap before the per-minute pace holds it (1 to 50)';
const TYPING = 'Which queued sends show "typing…" to the contact first: `automations` (their sends only), `all`, `off`';
const FIRST_CONTACTS = 'New chats (the contact never wrote) the number may start in any 24 hours (1 to 1000); over it, 429';
const UNANSWERED = 'Messages one chat may get in 24 hours since the contact last wrote (1 to 100); over it, 429';

export class FirstContactsUseResponse {
  @ApiProperty({ type: 'integer', description: 'New chats started in the last 24 hours' })
  used: number;

  @ApiProperty({ type: 'integer', description: '`first_contacts_per_day`' })
  cap: number;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When the oldest counted chat leaves the 24-hour window (null: none counted)',
  })
  resets_at: string | null;
}

export class UnansweredUseResponse {
  @ApiProperty({ type: 'integer', description: '`unanswered_per_chat`' })
  cap: number;

  @ApiProperty({
    type: 'integer',
    description: 'One-to-one chats that have reached the cap now (they take no more sends until the contact writes or the window moves)',
  })
  chats_at_cap: number;
}

export class QueueUseResponse {
  @ApiProperty({ type: 'integer', description: 'Sends waiting in the outbound queue' })
  depth: number;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the oldest waiting send was queued' })
  oldest_queued_at: string | null;
}

export class SendLimitsUseResponse {
  @ApiProperty({ type: FirstContactsUseResponse })
  first_contacts: FirstContactsUseResponse;

  @ApiProperty({ type: UnansweredUseResponse })
  unanswered: UnansweredUseResponse;

  @ApiProperty({ type: QueueUseResponse })
  queue: QueueUseResponse;
}

export class SendSettingsValues {
  @ApiProperty({ type: 'integer', example: 1500, description: MIN_GAP })
  min_gap_ms: number;

  @ApiProperty({ type: 'integer', example: 2500, description: JITTER })
  jitter_ms: number;

  @ApiProperty({ type: 'integer', example: 12, description: PER_MINUTE })
  per_minute: number;

  @ApiProperty({ type: 'integer', example: 4, description: BURST })
  burst: number;

  @ApiProperty({ enum: TYPING_MODES, example: 'automations', description: TYPING })
  typing: string;

  @ApiProperty({ type: 'integer', example: 20, description: FIRST_CONTACTS })
  first_contacts_per_day: number;

  @ApiProperty({ type: 'integer', example: 5, description: UNANSWERED })
  unanswered_per_chat: number;
}

export class SendLimitsResponse extends SendSettingsValues {
  @ApiProperty({ type: SendSettingsValues, description: "The service's defaults (SEND_* variables), which hold until the workspace saves its own" })
  defaults: SendSettingsValues;

  @ApiProperty({ type: SendLimitsUseResponse })
  usage: SendLimitsUseResponse;
}

/** PATCH /api/chat/limits: any subset; each within its bounds. */
export class UpdateSendLimitsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 200, maximum: 600000, description: MIN_GAP })
  min_gap_ms?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 600000, description: JITTER })
  jitter_ms?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 300, description: PER_MINUTE })
  per_minute?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 50, description: BURST })
  burst?: number;

  @ApiPropertyOptional({ enum: TYPING_MODES, description: TYPING })
  typing?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, description: FIRST_CONTACTS })
  first_contacts_per_day?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: UNANSWERED })
  unanswered_per_chat?: number;
}

export class QueuedMessageResponse {
  @ApiProperty({ format: 'uuid', description: "The message's id" })
  id: string;

  @ApiProperty({ format: 'uuid' })
  conversation_id: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: '1-based place in the queue (1: next)' })
  position: number;

  @ApiProperty({ format: 'date-time' })
  queued_at: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Held back until then (the provider asked to slow down); null: at its turn' })
  not_before: string | null;
}

export class SendQueueResponse {
  @ApiProperty({ type: 'integer' })
  depth: number;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  oldest_queued_at: string | null;

  @ApiProperty({ type: [QueuedMessageResponse], description: 'The first 500 waiting sends, next first' })
  messages: QueuedMessageResponse[];
}
