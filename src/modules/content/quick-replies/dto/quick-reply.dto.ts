import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Length, Matches } from 'class-validator';
import { UUID_SHAPE } from '../../../inbox/dto/uuid-shape.js';
import { OptionalNotNull } from '../../../../infra/http/optional-not-null.decorator.js';

export const QUICK_REPLY_BODY_MAX = 4096;
export const SHORTCUT_RULE = 'shortcut must be 1-32 lowercase letters, digits, - or _';
export const QUICK_REPLY_BODY_RULE = `body is required (1 to ${QUICK_REPLY_BODY_MAX} characters)`;
export const RENDER_CONVERSATION_RULE = 'conversation_id must be a conversation id';
const SHORTCUT = /^[a-z0-9][a-z0-9_-]{0,31}$/;

// The composer's `/` is not part of the shortcut: `/thanks` and `thanks` are the same one.
const shortcut = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim().replace(/^\//, '') : value);
const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

/** `POST /api/quick-replies`. */
export class CreateQuickReplyDto {
  @ApiProperty({ example: 'thanks', pattern: '^/?[a-z0-9][a-z0-9_-]{0,31}$', description: 'what follows `/` in the composer; a leading `/` is dropped' })
  @Transform(shortcut)
  @Matches(SHORTCUT, { message: SHORTCUT_RULE })
  shortcut: string;

  @ApiProperty({
    example: 'Thanks {{contact.name}}, {{agent.name}} here: happy to help!',
    minLength: 1,
    maxLength: QUICK_REPLY_BODY_MAX,
    description: 'text with placeholders `{{contact.name}}`, `{{contact.phone}}`, `{{agent.name}}`, `{{conversation.name}}`',
  })
  @Transform(trim)
  @Length(1, QUICK_REPLY_BODY_MAX, { message: QUICK_REPLY_BODY_RULE })
  body: string;
}

/** `PATCH /api/quick-replies/:id`: the fields present change; neither may be null. */
export class UpdateQuickReplyDto {
  @ApiPropertyOptional({ example: 'thanks', pattern: '^/?[a-z0-9][a-z0-9_-]{0,31}$' })
  @OptionalNotNull()
  @Transform(shortcut)
  @Matches(SHORTCUT, { message: SHORTCUT_RULE })
  shortcut?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: QUICK_REPLY_BODY_MAX })
  @OptionalNotNull()
  @Transform(trim)
  @Length(1, QUICK_REPLY_BODY_MAX, { message: QUICK_REPLY_BODY_RULE })
  body?: string;
}

/** `POST /api/quick-replies/:id/render`. */
export class RenderQuickReplyDto {
  @ApiProperty({ format: 'uuid', description: 'the conversation the text is for (its contact, chat name)' })
  @Matches(UUID_SHAPE, { message: RENDER_CONVERSATION_RULE })
  conversation_id: string;
}

export class QuickReplyResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'thanks', description: 'without the `/`' })
  shortcut: string;

  @ApiProperty()
  body: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class RenderedQuickReplyResponse {
  @ApiProperty({ example: 'Thanks Maria, Ana here: happy to help!' })
  text: string;
}
