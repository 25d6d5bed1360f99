import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../../../infra/http/optional-not-null.decorator.js';
import { ApiSchemaRules } from '../../../infra/http/schema-rules.js';
import { type MessageKind } from '../message-kinds.js';
import { InteractiveDto, InteractiveField } from './interactive.dto.js';
import { CaptionField, ContactCardDto, ContactsField, LocationDto, LocationField, MAX_TEXT, MediaDto, MediaField, ReactionDto } from './message-parts.dto.js';
import { SEND_RULES } from './message-request.schema.js';
import { TemplateButtonDto, TemplateButtonsField, TemplateHeaderDto, TemplateHeaderField } from './template-extras.dto.js';

export { ContactCardDto, LocationDto, MAX_TEXT, MediaDto, ReactionDto } from './message-parts.dto.js';

/**
 * The kinds a send may create: every stored kind but a poll (WhatsApp's polls are the phone
 * app's) and `unsupported` (what the inbox could not read).
 */
export const SENDABLE_KINDS = [
  'text',
  'image',
  'document',
  'video',
  'audio',
  'voice',
  'sticker',
  'location',
  'contacts',
] as const satisfies readonly MessageKind[];
export type SendableKind = (typeof SENDABLE_KINDS)[number];
/**
 * What a send may be: a kind, a template (stored as the filled-in text), an interactive message
 * (Cloud API; stored as its text), or a reaction (changes its target, stores no message).
 */
export const SEND_TYPES = [...SENDABLE_KINDS, 'template', 'interactive', 'reaction'] as const;
export type SendType = (typeof SEND_TYPES)[number];
/** More than any template has; Cloud API templates allow far fewer. */
export const MAX_TEMPLATE_PARAMETERS = 100;
export const MAX_TEMPLATE_PARAMETER_LENGTH = 1024;
/** `body` and its alias `content` both given, with different texts. */
export const BODY_CONTENT_DIFFER = 'body and content differ: they are the same field (content is an alias of body), send one of them';

/**
 * `{body}` (or its alias `{content}`) for text; `{type, media, caption}` for a file; `{type:
 * "location", location}`; `{type: "contacts", contacts}`; `{type: "template", template_id,
 * parameters}`; `{type: "interactive", interactive}`; `{reaction}`. Any message may reply to
 * another (`reply_to`).
 */
@ApiSchemaRules(SEND_RULES(SEND_TYPES))
export class SendMessageDto {
  @ApiPropertyOptional({ enum: SEND_TYPES, default: 'text', description: 'what to send; a body with `reaction` may leave it out' })
  @OptionalNotNull()
  @IsIn(SEND_TYPES, { message: `type must be one of ${SEND_TYPES.join(', ')}` })
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

  @MediaField()
  media?: MediaDto;

  @CaptionField()
  caption?: string;

  @LocationField()
  location?: LocationDto;

  @ContactsField()
  contacts?: ContactCardDto[];

  @InteractiveField()
  interactive?: InteractiveDto;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'our `id` of a message of this conversation that this one replies to (quotes); any kind but a reaction may reply',
  })
  @OptionalNotNull()
  @IsString()
  reply_to?: string;

  @ApiPropertyOptional({
    type: ReactionDto,
    description: 'a reaction (with `type: "reaction"` or no `type`): not stored as a message; the answer is the message reacted to',
  })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => ReactionDto)
  reaction?: ReactionDto;

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

  @TemplateHeaderField()
  header?: TemplateHeaderDto;

  @TemplateButtonsField()
  buttons?: TemplateButtonDto[];
}
