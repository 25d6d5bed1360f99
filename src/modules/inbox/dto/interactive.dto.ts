import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../../../infra/http/optional-not-null.decorator.js';
import { NON_BLANK, type SchemaRules } from '../../../infra/http/schema-rules.js';

/**
 * The Cloud API's limits of interactive messages (its reference on reply buttons and list
 * messages), in characters. The rules no single field states (unique ids and titles, ten rows in
 * all, a section title once there are two sections) are checked by `interactiveDraft`
 * (messages/interactive-draft.ts) and stated by `INTERACTIVE_SEND_RULES`.
 */
export const INTERACTIVE_LIMITS = {
  buttons: 3,
  buttonId: 256,
  buttonTitle: 20,
  buttonsBody: 1024,
  listBody: 4096,
  header: 60,
  footer: 60,
  listButton: 20,
  sections: 10,
  rows: 10,
  sectionTitle: 24,
  rowId: 200,
  rowTitle: 24,
  rowDescription: 72,
} as const;

const L = INTERACTIVE_LIMITS;
export const INTERACTIVE_TYPES = ['buttons', 'list'] as const;
export type InteractiveType = (typeof INTERACTIVE_TYPES)[number];

/** An id the provider takes: not empty, no space at either end. */
export const CHOICE_ID_PATTERN = '^\\S([\\s\\S]*\\S)?$';
const CHOICE_ID = new RegExp(CHOICE_ID_PATTERN);
const CHOICE_ID_RULE = 'must not be empty or start or end with a space';

export class InteractiveButtonDto {
  @ApiProperty({
    maxLength: L.buttonId,
    pattern: CHOICE_ID_PATTERN,
    example: 'confirm',
    description: "comes back as the reply's id when the person taps the button",
  })
  @IsString()
  @MaxLength(L.buttonId)
  @Matches(CHOICE_ID, { message: `id ${CHOICE_ID_RULE}` })
  id: string;

  @ApiProperty({ maxLength: L.buttonTitle, pattern: NON_BLANK, example: 'Confirm', description: 'the label, unique within the message' })
  @IsString()
  @MaxLength(L.buttonTitle)
  @Matches(/\S/, { message: 'title must not be blank' })
  title: string;
}

export class InteractiveRowDto {
  @ApiProperty({ maxLength: L.rowId, pattern: CHOICE_ID_PATTERN, example: 'express', description: "comes back as the reply's id, unique within the message" })
  @IsString()
  @MaxLength(L.rowId)
  @Matches(CHOICE_ID, { message: `id ${CHOICE_ID_RULE}` })
  id: string;

  @ApiProperty({ maxLength: L.rowTitle, pattern: NON_BLANK, example: 'Express delivery' })
  @IsString()
  @MaxLength(L.rowTitle)
  @Matches(/\S/, { message: 'title must not be blank' })
  title: string;

  @ApiPropertyOptional({ maxLength: L.rowDescription, example: 'Next day' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(L.rowDescription)
  description?: string;
}

export class InteractiveSectionDto {
  @ApiPropertyOptional({ maxLength: L.sectionTitle, example: 'Delivery', description: 'required once the list has two sections or more' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(L.sectionTitle)
  title?: string;

  @ApiProperty({ type: [InteractiveRowDto], minItems: 1, maxItems: L.rows, description: `the options; at most ${L.rows} rows in all the sections together` })
  @IsArray()
  @ArrayMinSize(1, { message: 'rows must hold at least one row' })
  @ArrayMaxSize(L.rows, { message: `rows must hold at most ${L.rows} rows` })
  @ValidateNested({ each: true })
  @Type(() => InteractiveRowDto)
  rows: InteractiveRowDto[];
}

/**
 * An interactive message (Cloud API numbers only, inside the 24-hour customer-service window):
 * up to three reply buttons, or a list the person opens with `button` and picks one row of. The
 * person's tap comes back as a text message with the button's or row's title.
 */
export class InteractiveDto {
  @ApiProperty({ enum: INTERACTIVE_TYPES, description: '`buttons` (reply buttons) or `list`' })
  @IsIn(INTERACTIVE_TYPES, { message: 'type must be buttons or list' })
  type: InteractiveType;

  @ApiProperty({
    maxLength: L.listBody,
    pattern: NON_BLANK,
    example: 'Shall we deliver tomorrow?',
    description: `the text; at most ${L.buttonsBody} characters with reply buttons`,
  })
  @IsString()
  @MaxLength(L.listBody)
  @Matches(/\S/, { message: 'body must not be blank' })
  body: string;

  @ApiPropertyOptional({ maxLength: L.header, example: 'Your order', description: 'a text shown above the body' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(L.header)
  header?: string;

  @ApiPropertyOptional({ maxLength: L.footer, example: 'Reply any time' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(L.footer)
  footer?: string;

  @ApiPropertyOptional({
    type: [InteractiveButtonDto],
    minItems: 1,
    maxItems: L.buttons,
    description: '`type: "buttons"`: the reply buttons, ids and titles unique',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1, { message: 'buttons must hold at least one button' })
  @ArrayMaxSize(L.buttons, { message: `buttons must hold at most ${L.buttons} buttons` })
  @ValidateNested({ each: true })
  @Type(() => InteractiveButtonDto)
  buttons?: InteractiveButtonDto[];

  @ApiPropertyOptional({
    maxLength: L.listButton,
    pattern: NON_BLANK,
    example: 'Choose',
    description: '`type: "list"`: the label of the button that opens the list',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(L.listButton)
  @Matches(/\S/, { message: 'button must not be blank' })
  button?: string;

  @ApiPropertyOptional({
    type: [InteractiveSectionDto],
    minItems: 1,
    maxItems: L.sections,
    description: '`type: "list"`: the sections and their rows; row ids unique',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1, { message: 'sections must hold at least one section' })
  @ArrayMaxSize(L.sections, { message: `sections must hold at most ${L.sections} sections` })
  @ValidateNested({ each: true })
  @Type(() => InteractiveSectionDto)
  sections?: InteractiveSectionDto[];
}

/** The `interactive` object of a `type: "interactive"` send, by its `type`: what each variant requires. */
export const INTERACTIVE_SEND_RULES: SchemaRules = {
  description: 'an interactive message (Cloud API): `interactive` with reply buttons or a list',
  required: ['type', 'interactive'],
  properties: {
    interactive: {
      oneOf: [
        {
          required: ['type', 'body', 'buttons'],
          properties: { type: { type: 'string', enum: ['buttons'] }, body: { type: 'string', maxLength: L.buttonsBody } },
        },
        { required: ['type', 'body', 'button', 'sections'], properties: { type: { type: 'string', enum: ['list'] } } },
      ],
    },
  },
};

/** `interactive` on a send: the object, validated field by field (interactiveDraft checks the rest). */
export const InteractiveField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: InteractiveDto, description: 'with `type: "interactive"`: reply buttons or a list (Cloud API numbers only)' }),
    OptionalNotNull(),
    IsObject(),
    ValidateNested(),
    Type(() => InteractiveDto),
  );
