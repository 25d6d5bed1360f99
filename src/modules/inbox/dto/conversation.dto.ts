import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../../infra/http/optional-not-null.decorator.js';
import { ApiSchemaRules } from '../../../infra/http/schema-rules.js';
import { CONVERSATION_STATUSES, type ConversationStatus } from '../entities/conversation.entity.js';
import { BODY_CONTENT_DIFFER, MAX_TEXT } from './message.dto.js';
import { ONE_TEXT } from './message-request.schema.js';
import { PhoneNumber } from './phone-number.decorator.js';

@ApiSchemaRules({ allOf: [ONE_TEXT] })
export class StartConversationDto {
  @PhoneNumber()
  phone?: string;

  @ApiPropertyOptional({
    maxLength: MAX_TEXT,
    description:
      'the first message, at most 65,536 characters. Leave out `body` and `content` to start the conversation without a message ' +
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
}

export class AssignConversationDto {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "a member's user id, or null to unassign" })
  @IsOptional()
  @IsString()
  user_id?: string | null;
}

export class UpdateConversationDto {
  @ApiProperty({ enum: CONVERSATION_STATUSES })
  @IsIn(CONVERSATION_STATUSES, { message: 'status must be open or closed' })
  status: ConversationStatus;
}
