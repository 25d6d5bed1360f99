import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../../infra/http/optional-not-null.decorator.js';
import { ApiSchemaRules } from '../../../infra/http/schema-rules.js';
import { CONVERSATION_STATUSES, type ConversationStatus } from '../entities/conversation.entity.js';
import { BODY_CONTENT_DIFFER, MAX_TEXT, SENDABLE_KINDS, type SendableKind } from './message.dto.js';
import { CaptionField, ContactCardDto, ContactsField, LocationDto, LocationField, MediaDto, MediaField } from './message-parts.dto.js';
import { ONE_TEXT, START_RULES } from './message-request.schema.js';
import { PhoneNumber } from './phone-number.decorator.js';

/**
 * `{phone}` alone finds or creates the conversation; with a message (a text, a file, a place,
 * contact cards: the fields of `POST /api/conversations/:id/messages`) it also sends it.
 */
@ApiSchemaRules({ allOf: [ONE_TEXT], oneOf: START_RULES(SENDABLE_KINDS) })
export class StartConversationDto {
  @PhoneNumber()
  phone?: string;

  @ApiPropertyOptional({
    enum: SENDABLE_KINDS,
    description:
      "the first message's kind, as on `POST /api/conversations/:id/messages` (default `text` when `body` is given); templates, reactions and replies need the conversation first",
  })
  @OptionalNotNull()
  @IsIn(SENDABLE_KINDS, { message: `type must be one of ${SENDABLE_KINDS.join(', ')}` })
  type?: SendableKind;

  @ApiPropertyOptional({
    maxLength: MAX_TEXT,
    description:
      "the first message's text, at most 65,536 characters. Leave out `body`, `content` and `type` to start the conversation without a message " +
      '(`message` is then null; send a text or a template later)',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_TEXT)
  body?: string;

  @ApiPropertyOptional({
    maxLength: MAX_TEXT,
    description: `alias of \`body\`; both only with the same text, else 400 \`${BODY_CONTENT_DIFFER}\``,
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_TEXT)
  content?: string;

  @MediaField()
  media?: MediaDto;

  @CaptionField()
  caption?: string;

  @LocationField()
  location?: LocationDto;

  @ContactsField()
  contacts?: ContactCardDto[];
}

export class AssignConversationDto {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "a member's user id, or null to unassign" })
  @IsOptional()
  @IsString()
  user_id?: string | null;
}

export const STATUS_INVALID = 'status must be open, pending, snoozed or closed';

/**
 * `{status}`, and with `snoozed` the time it ends (`snoozed_until`, checked by
 * ConversationStatusService: its texts are the service's). The pairing is stated as two variants.
 */
@ApiSchemaRules({
  oneOf: [
    { properties: { status: { enum: ['open', 'pending', 'closed'] } }, not: { required: ['snoozed_until'] } },
    { properties: { status: { enum: ['snoozed'] } }, required: ['status', 'snoozed_until'] },
  ],
})
export class UpdateConversationDto {
  @ApiProperty({
    enum: CONVERSATION_STATUSES,
    description: '`pending`: waiting on the customer; `snoozed`: out of sight until `snoozed_until` or their next message',
  })
  @IsIn(CONVERSATION_STATUSES, { message: STATUS_INVALID })
  status: ConversationStatus;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description:
      'With `status: snoozed` only (required then): when the conversation opens again by itself, in the future and at most 365 days ahead (RFC 3339 with a zone). ' +
      'Any other status clears it',
  })
  // The service checks it (its rules depend on `status` and on the present): kept, not stripped.
  @Allow()
  snoozed_until?: unknown;
}
