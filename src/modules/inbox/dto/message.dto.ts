import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../../../infra/http/optional-not-null.decorator.js';
import { ApiSchemaRules, NON_BLANK } from '../../../infra/http/schema-rules.js';
import { MESSAGE_KIND_NAMES, type MessageKind } from '../message-kinds.js';
import { BASE64_PATTERN, MEDIA_RULES, MEDIA_URL_PATTERN, SEND_RULES } from './message-request.schema.js';

/** What a send may be: a message kind, or a template (stored as the filled-in text). */
export const SEND_TYPES = [...MESSAGE_KIND_NAMES, 'template'] as const;
export type SendType = MessageKind | 'template';
/** More than any template has; Cloud API templates allow far fewer. */
export const MAX_TEMPLATE_PARAMETERS = 100;
export const MAX_TEMPLATE_PARAMETER_LENGTH = 1024;
/** The longest text (or caption) WhatsApp takes in one message. */
export const MAX_TEXT = 65_536;
/** `body` and its alias `content` both given, with different texts. */
export const BODY_CONTENT_DIFFER = 'body and content differ: they are the same field (content is an alias of body), send one of them';

@ApiSchemaRules(MEDIA_RULES)
export class MediaDto {
  @ApiPropertyOptional({
    description: 'http(s) address the channel fetches the file from',
    pattern: MEDIA_URL_PATTERN,
    example: 'https://example.com/photo.png',
  })
  @OptionalNotNull()
  @IsString()
  url?: string;

  @ApiPropertyOptional({ description: 'the file itself, base64 (instead of url; needs `mime_type`)', pattern: BASE64_PATTERN, example: 'iVBORw0KGgo=' })
  @OptionalNotNull()
  @IsString()
  data_base64?: string;

  @ApiPropertyOptional({ example: 'image/png', pattern: NON_BLANK })
  @OptionalNotNull()
  @IsString()
  mime_type?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  file_name?: string;
}

/**
 * `{body}` (or its alias `{content}`) for text, `{type, media, caption}` for an image or a
 * document, or `{type: "template", template_id, parameters}` for a template.
 */
@ApiSchemaRules(SEND_RULES(SEND_TYPES))
export class SendMessageDto {
  @ApiPropertyOptional({ enum: SEND_TYPES, default: 'text' })
  @OptionalNotNull()
  @IsIn(SEND_TYPES, { message: 'type must be text, image, document or template' })
  type?: SendType;

  @ApiPropertyOptional({
    description: "text of a text message, at most 65,536 characters (WhatsApp's own limit; the Cloud API refuses more than 4,096)",
    maxLength: MAX_TEXT,
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_TEXT)
  body?: string;

  @ApiPropertyOptional({
    maxLength: MAX_TEXT,
    description:
      'alias of `body`, named like the `content` of the message it creates; send one of the two (both only with the same text, ' +
      `else 400 \`${BODY_CONTENT_DIFFER}\`)`,
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_TEXT)
  content?: string;

  @ApiPropertyOptional({ type: MediaDto })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => MediaDto)
  media?: MediaDto;

  @ApiPropertyOptional({ maxLength: MAX_TEXT })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_TEXT)
  caption?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'with `type: "template"`: the template to send' })
  @OptionalNotNull()
  @IsString()
  template_id?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_TEMPLATE_PARAMETERS,
    items: { type: 'string', maxLength: MAX_TEMPLATE_PARAMETER_LENGTH },
    description: 'with `type: "template"`: the values of `{{1}}`, `{{2}}`, … in order; every parameter of the template is required',
  })
  // Checked as a whole by parseTemplateRequest, so a wrong value gets one sentence, not several;
  // here only that it is a list, so that `null` is refused with the same sentence.
  @OptionalNotNull()
  @IsArray({ message: `parameters must be an array of at most ${MAX_TEMPLATE_PARAMETERS} strings of at most ${MAX_TEMPLATE_PARAMETER_LENGTH} characters` })
  parameters?: unknown;
}
