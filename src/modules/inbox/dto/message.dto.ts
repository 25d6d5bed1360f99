import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { MESSAGE_TYPES, type MessageType } from '../entities/message.entity.js';

/** What a send may be: a stored message type, or a template (stored as the filled-in text). */
export const SEND_TYPES = [...MESSAGE_TYPES, 'template'] as const;
export type SendType = MessageType | 'template';
/** More than any template has; Cloud API templates allow far fewer. */
export const MAX_TEMPLATE_PARAMETERS = 100;
export const MAX_TEMPLATE_PARAMETER_LENGTH = 1024;
/** The longest text (or caption) WhatsApp takes in one message. */
export const MAX_TEXT = 65_536;

export class MediaDto {
  @ApiPropertyOptional({ description: 'http(s) address the channel fetches the file from' })
  @IsOptional()
  @IsString()
  url?: string;

  @ApiPropertyOptional({ description: 'the file itself, base64 (instead of url)' })
  @IsOptional()
  @IsString()
  data_base64?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  mime_type?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  file_name?: string;
}

/**
 * `{body}` for text, `{type, media, caption}` for an image or a document, or
 * `{type: "template", template_id, parameters}` for a template.
 */
export class SendMessageDto {
  @ApiPropertyOptional({ enum: SEND_TYPES, default: 'text' })
  @IsOptional()
  @IsIn(SEND_TYPES, { message: 'type must be text, image, document or template' })
  type?: SendType;

  @ApiPropertyOptional({ description: "text of a text message, at most 65,536 characters (WhatsApp's own limit; the Cloud API refuses more than 4,096)", maxLength: MAX_TEXT })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEXT)
  body?: string;

  @ApiPropertyOptional({ type: MediaDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => MediaDto)
  media?: MediaDto;

  @ApiPropertyOptional({ maxLength: MAX_TEXT })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEXT)
  caption?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'with `type: "template"`: the template to send' })
  @IsOptional()
  @IsString()
  template_id?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_TEMPLATE_PARAMETERS,
    items: { type: 'string', maxLength: MAX_TEMPLATE_PARAMETER_LENGTH },
    description: 'with `type: "template"`: the values of `{{1}}`, `{{2}}`, … in order; every parameter of the template is required',
  })
  // Checked as a whole by parseTemplateRequest, so a wrong value gets one sentence, not several.
  @IsOptional()
  parameters?: unknown;
}
