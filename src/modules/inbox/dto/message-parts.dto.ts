import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNumber, IsObject, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../../../infra/http/optional-not-null.decorator.js';
import { ApiSchemaRules, NON_BLANK } from '../../../infra/http/schema-rules.js';
import { PHONE_PATTERN } from '../jid.js';
import { BASE64_PATTERN, EMOJI_RULE, MEDIA_RULES, MEDIA_URL_PATTERN } from './message-request.schema.js';

/**
 * The parts of a message a send gives beside its text: a file, a place, contact cards (shared by
 * `POST /api/conversations/:id/messages` and `POST /api/conversations`), and a reaction.
 */

/** How many contact cards one message carries, and phone numbers one card (WhatsApp's share sheet allows no more). */
export const MAX_CONTACT_CARDS = 10;
export const MAX_CARD_PHONES = 10;
/** The longest name, address or link of a location, and name of a contact card. */
export const MAX_DETAIL_TEXT = 1024;
/** The longest text (or caption) WhatsApp takes in one message. */
export const MAX_TEXT = 65_536;

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

  @ApiPropertyOptional({
    example: 'image/png',
    pattern: NON_BLANK,
    description: "the file's type, of the kind's family (`image/*`, `video/*`, `audio/*`); a voice note `audio/ogg; codecs=opus`, a sticker `image/webp`",
  })
  @OptionalNotNull()
  @IsString()
  mime_type?: string;

  @ApiPropertyOptional({ description: "a document's name as the recipient sees it" })
  @OptionalNotNull()
  @IsString()
  file_name?: string;
}

const COORDINATE = (name: string, limit: number): string => `${name} must be a number between -${limit} and ${limit}`;

/** A place: coordinates in degrees (WGS 84), with what the recipient's map shows beside them. */
export class LocationDto {
  @ApiProperty({ minimum: -90, maximum: 90, example: 52.520008 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: COORDINATE('latitude', 90) })
  @Min(-90, { message: COORDINATE('latitude', 90) })
  @Max(90, { message: COORDINATE('latitude', 90) })
  latitude: number;

  @ApiProperty({ minimum: -180, maximum: 180, example: 13.404954 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: COORDINATE('longitude', 180) })
  @Min(-180, { message: COORDINATE('longitude', 180) })
  @Max(180, { message: COORDINATE('longitude', 180) })
  longitude: number;

  @ApiPropertyOptional({ maxLength: MAX_DETAIL_TEXT, example: 'Brandenburg Gate' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_DETAIL_TEXT)
  name?: string;

  @ApiPropertyOptional({ maxLength: MAX_DETAIL_TEXT, example: 'Pariser Platz, 10117 Berlin' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_DETAIL_TEXT)
  address?: string;

  @ApiPropertyOptional({
    maxLength: MAX_DETAIL_TEXT,
    pattern: MEDIA_URL_PATTERN,
    description: "a link to the place's page (http or https)",
    example: 'https://example.com/visit',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_DETAIL_TEXT)
  url?: string;
}

/** A contact card: a name and phone numbers; the vCard sent is built from them. */
export class ContactCardDto {
  @ApiProperty({ maxLength: MAX_DETAIL_TEXT, pattern: NON_BLANK, example: 'Ada Lovelace' })
  @IsString()
  @MaxLength(MAX_DETAIL_TEXT)
  name: string;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_CARD_PHONES,
    items: { type: 'string', pattern: PHONE_PATTERN },
    example: ['+4915123456789'],
    description: 'phone numbers as `phone` of a new conversation takes them (E.164, `+` and separators allowed); stored as digits',
  })
  @IsArray({ message: `phones must be a list of 1 to ${MAX_CARD_PHONES} phone numbers` })
  @ArrayMinSize(1, { message: `phones must be a list of 1 to ${MAX_CARD_PHONES} phone numbers` })
  @ArrayMaxSize(MAX_CARD_PHONES, { message: `phones must be a list of 1 to ${MAX_CARD_PHONES} phone numbers` })
  @IsString({ each: true, message: 'each of phones must be a string' })
  phones: string[];
}

/** A reaction to a message of the conversation. */
export class ReactionDto {
  @ApiProperty({ format: 'uuid', description: 'our `id` of the message reacted to (one of this conversation)' })
  @IsString()
  message_id: string;

  @ApiProperty({ description: `${EMOJI_RULE}`, example: '👍' })
  @IsString()
  emoji: string;
}

/** `media`: the file of an image, document, video, audio, voice note or sticker. */
export const MediaField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: MediaDto, description: 'with a file `type`: the file, by address or as base64' }),
    OptionalNotNull(),
    IsObject(),
    ValidateNested(),
    Type(() => MediaDto),
  );

/** `caption`: the text of an image, a video or a document (the other kinds have none). */
export const CaptionField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: MAX_TEXT, description: 'the text shown with an image, a video or a document' }),
    OptionalNotNull(),
    IsString(),
    MaxLength(MAX_TEXT),
  );

/** `location`: the place of a `type: "location"` message. */
export const LocationField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: LocationDto, description: 'with `type: "location"`: the place' }),
    OptionalNotNull(),
    IsObject(),
    ValidateNested(),
    Type(() => LocationDto),
  );

const CARDS_RULE = `contacts must be a list of 1 to ${MAX_CONTACT_CARDS} cards`;

/** `contacts`: the cards of a `type: "contacts"` message. */
export const ContactsField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: [ContactCardDto], minItems: 1, maxItems: MAX_CONTACT_CARDS, description: 'with `type: "contacts"`: the cards' }),
    OptionalNotNull(),
    IsArray({ message: CARDS_RULE }),
    ArrayMinSize(1, { message: CARDS_RULE }),
    ArrayMaxSize(MAX_CONTACT_CARDS, { message: CARDS_RULE }),
    ValidateNested({ each: true }),
    Type(() => ContactCardDto),
  );
