import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, Matches } from 'class-validator';
import { OptionalNotNull } from '../../../infra/http/optional-not-null.decorator.js';

export const PHONE_NUMBER_ID_INVALID = 'phone_number_id must be the numeric id of the number (WhatsApp Manager or the API Setup page)';
export const WABA_ID_INVALID = 'waba_id must be the numeric id of the WhatsApp Business Account';
export const ACCESS_TOKEN_INVALID = 'access_token must be a token without spaces';

/** Graph ids are decimal strings. */
const GRAPH_ID = /^\d{1,32}$/;

/** `PUT /api/meta/settings`. */
export class PutMetaSettingsDto {
  @ApiProperty({ example: '106540352242922', description: "The number's id at the provider (not the phone number)" })
  @IsDefined({ message: 'phone_number_id is required' })
  @Matches(GRAPH_ID, { message: PHONE_NUMBER_ID_INVALID })
  phone_number_id: string;

  @ApiProperty({ example: '102290129340398', description: 'The WhatsApp Business Account the number belongs to' })
  @IsDefined({ message: 'waba_id is required' })
  @Matches(GRAPH_ID, { message: WABA_ID_INVALID })
  waba_id: string;

  @ApiPropertyOptional({
    description:
      'A system-user or business token with whatsapp_business_messaging and whatsapp_business_management; stored encrypted, never returned. May be left out to keep the stored one',
    example: 'EAAGexampletoken',
  })
  @OptionalNotNull()
  @Matches(/^\S{1,4096}$/, { message: ACCESS_TOKEN_INVALID })
  access_token?: string;
}

/** The settings as the Console shows them; the token never leaves the service. */
export class MetaSettingsResponse {
  @ApiProperty({ nullable: true, type: String, description: 'null while the workspace has no Cloud API number' })
  phone_number_id: string | null;

  @ApiProperty({ nullable: true, type: String })
  waba_id: string | null;

  @ApiProperty({ example: '+1 555-078-3881', description: 'As the provider displays it; empty while not configured' })
  display_phone_number: string;

  @ApiProperty({ description: 'The business name the provider verified; empty when unknown' })
  verified_name: string;

  @ApiProperty({ description: 'Configured and the token was accepted (false after the provider refused the token: save the settings again)' })
  connected: boolean;

  @ApiProperty({ description: 'An access token is stored (it is never returned)' })
  token_set: boolean;

  @ApiProperty({ nullable: true, type: String, description: 'Why the channel is disconnected, when it is' })
  error: string | null;
}
