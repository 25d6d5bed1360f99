import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../../infra/http/optional-not-null.decorator.js';
import { ApiSchemaRules } from '../../../infra/http/schema-rules.js';
import { MAX_TEXT } from './message-parts.dto.js';
import { ONE_TEXT } from './message-request.schema.js';

/** `PATCH /api/conversations/:id/messages/:message_id`: the new text of a text this number sent. */
@ApiSchemaRules({ allOf: [ONE_TEXT], anyOf: [{ required: ['body'] }, { required: ['content'] }] })
export class EditMessageDto {
  @ApiPropertyOptional({ maxLength: MAX_TEXT, description: 'the new text (or `content`, its alias)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_TEXT)
  body?: string;

  @ApiPropertyOptional({ maxLength: MAX_TEXT, description: 'alias of `body`' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_TEXT)
  content?: string;
}
