import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsOptional, Length } from 'class-validator';
import { CHANNEL_NAMES, type ChannelName } from '../../channels/channel-gateway.port.js';
import { OptionalNotNull } from '../../../infra/http/optional-not-null.decorator.js';
import { DEFAULT_WEBHOOK_EVENTS, WEBHOOK_EVENT_CATALOGUE, WEBHOOK_EVENTS, type WebhookEventName } from '../events/webhook-event.catalogue.js';

const URL_DESCRIPTION =
  '`https://` only (also `http://` when the service runs with ALLOW_HTTP_WEBHOOKS); a host that is, or resolves to, a private, loopback, link-local, CGNAT, multicast or other internal address is refused (unless ALLOW_PRIVATE_WEBHOOKS). At most 2048 characters. Credentials (`https://user:pass@host/…`, sent as HTTP Basic auth) are stored encrypted and never shown again: answers carry `***` in their place. On a PATCH, the URL as answered, with `***` where the password (or a lone user name) was, keeps the stored one; with anything else changed (path and query included) `***` is 400: give the real credential (spell a literal `***` as `%2A%2A%2A`).';
export const URL_MESSAGE = 'url is required: a URL of at most 2048 characters';
export const EVENTS_MESSAGE = `events must be a non-empty list of ${WEBHOOK_EVENTS.join(', ')}`;
// The document said "both" while the default was both of two events; it names them otherwise.
const DEFAULTS =
  DEFAULT_WEBHOOK_EVENTS.length === WEBHOOK_EVENTS.length && WEBHOOK_EVENTS.length === 2
    ? 'both'
    : DEFAULT_WEBHOOK_EVENTS.map((name) => `\`${name}\``).join(', ');
const EVENTS_DESCRIPTION = `The events it receives; default ${DEFAULTS}. ${WEBHOOK_EVENTS.map((name) => `\`${name}\`: ${WEBHOOK_EVENT_CATALOGUE[name].description}`).join('; ')}.`;
export const ENABLED_MESSAGE = 'enabled must be true or false';
export const CHANNELS_MESSAGE = `channels must be a list of ${CHANNEL_NAMES.join(', ')}`;
export const INCLUDE_GROUPS_MESSAGE = 'include_groups must be true or false';
const CHANNELS_DESCRIPTION =
  'Only events of these channels’ numbers (`scan`: the QR-linked number, `meta`: the Cloud API number); omitted or `null`: every channel (on a PATCH, `null` goes back to every channel). `webhook.test` is never filtered, and an event of no channel passes.';
const INCLUDE_GROUPS_DESCRIPTION =
  'Whether events of group chats reach it (`scan.chat` of a group message, the message and conversation events of a group); events with no group notion (`session.status`, `meta.chat`) always do.';

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://example.com/whatsapp/events', description: URL_DESCRIPTION, maxLength: 2048 })
  @Length(1, 2048, { message: URL_MESSAGE })
  url: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, isArray: true, description: EVENTS_DESCRIPTION })
  @OptionalNotNull()
  @IsArray({ message: EVENTS_MESSAGE })
  @ArrayNotEmpty({ message: EVENTS_MESSAGE })
  @ArrayMaxSize(10, { message: EVENTS_MESSAGE })
  @IsIn(WEBHOOK_EVENTS, { each: true, message: EVENTS_MESSAGE })
  events?: WebhookEventName[];

  @ApiPropertyOptional({ default: true })
  @OptionalNotNull()
  @IsBoolean({ message: ENABLED_MESSAGE })
  enabled?: boolean;

  @ApiPropertyOptional({ enum: CHANNEL_NAMES, isArray: true, nullable: true, description: CHANNELS_DESCRIPTION })
  @IsOptional()
  @IsArray({ message: CHANNELS_MESSAGE })
  @ArrayNotEmpty({ message: CHANNELS_MESSAGE })
  @ArrayMaxSize(CHANNEL_NAMES.length, { message: CHANNELS_MESSAGE })
  @IsIn(CHANNEL_NAMES, { each: true, message: CHANNELS_MESSAGE })
  channels?: ChannelName[] | null;

  @ApiPropertyOptional({ default: true, description: INCLUDE_GROUPS_DESCRIPTION })
  @OptionalNotNull()
  @IsBoolean({ message: INCLUDE_GROUPS_MESSAGE })
  include_groups?: boolean;
}

/**
 * PATCH: absent fields stay as they are (same rules; none of them but `channels` can be emptied,
 * so `null` is refused like a wrong type; `channels: null` is every channel again). Enabling an endpoint the service disabled clears its reason.
 */
export class UpdateWebhookDto extends PartialType(CreateWebhookDto, { skipNullProperties: false }) {}
