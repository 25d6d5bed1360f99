import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsOptional, Length } from 'class-validator';
import { WEBHOOK_EVENTS, type WebhookEventName } from '../entities/webhook.entity.js';

const URL_DESCRIPTION =
  '`https://` only (also `http://` when the service runs with ALLOW_HTTP_WEBHOOKS); a host that is, or resolves to, a private, loopback, link-local, CGNAT, multicast or other internal address is refused (unless ALLOW_PRIVATE_WEBHOOKS). At most 2048 characters.';
export const URL_MESSAGE = 'url is required: a URL of at most 2048 characters';
export const EVENTS_MESSAGE = 'events must be a non-empty list of scan.chat, meta.chat';
export const ENABLED_MESSAGE = 'enabled must be true or false';

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://example.com/whatsapp/events', description: URL_DESCRIPTION, maxLength: 2048 })
  @Length(1, 2048, { message: URL_MESSAGE })
  url: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, isArray: true, description: 'The events it receives; default both.' })
  @IsOptional()
  @IsArray({ message: EVENTS_MESSAGE })
  @ArrayNotEmpty({ message: EVENTS_MESSAGE })
  @ArrayMaxSize(10, { message: EVENTS_MESSAGE })
  @IsIn(WEBHOOK_EVENTS, { each: true, message: EVENTS_MESSAGE })
  events?: WebhookEventName[];

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: ENABLED_MESSAGE })
  enabled?: boolean;
}

/**
 * PATCH: absent fields stay as they are (same rules; none of them can be emptied, so `null` is
 * refused like a wrong type). Enabling an endpoint the service disabled clears its reason.
 */
export class UpdateWebhookDto extends PartialType(CreateWebhookDto) {}
