import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsObject, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../../../infra/http/optional-not-null.decorator.js';
import { NON_BLANK } from '../../../infra/http/schema-rules.js';
import { MediaDto } from './message-parts.dto.js';

/**
 * The parameters of a Cloud API template beyond its body's: its header's (a text, or a file) and
 * its buttons' (a URL button's suffix, a quick reply's payload, a coupon code). Checked across
 * fields and turned into the template's parts by messages/template-extras.ts.
 */

/** What a template's header takes as its parameter. */
export const TEMPLATE_HEADER_TYPES = ['text', 'image', 'document', 'video'] as const;
export type TemplateHeaderType = (typeof TEMPLATE_HEADER_TYPES)[number];
/** The kinds of template buttons that take a parameter. */
export const TEMPLATE_BUTTON_TYPES = ['url', 'quick_reply', 'copy_code'] as const;
export type TemplateButtonType = (typeof TEMPLATE_BUTTON_TYPES)[number];
/** A template holds at most 10 buttons; a header's text at most 60 characters (the Cloud API's limits). */
export const MAX_TEMPLATE_BUTTONS = 10;
export const MAX_TEMPLATE_HEADER_TEXT = 60;
/** More than a link's suffix or a payload needs (the provider refuses a too long one itself). */
export const MAX_TEMPLATE_BUTTON_PARAMETER = 2000;

const INDEX_RULE = `index must be an integer from 0 to ${MAX_TEMPLATE_BUTTONS - 1}`;
const BUTTONS_RULE = `buttons must be a list of at most ${MAX_TEMPLATE_BUTTONS} button parameters`;

/** The parameter of a template's header: its text, or its file. */
export class TemplateHeaderDto {
  @ApiProperty({ enum: TEMPLATE_HEADER_TYPES, description: "the header's format, as the template declares it" })
  @IsIn(TEMPLATE_HEADER_TYPES, { message: 'type must be text, image, document or video' })
  type: TemplateHeaderType;

  @ApiPropertyOptional({
    maxLength: MAX_TEMPLATE_HEADER_TEXT,
    pattern: NON_BLANK,
    example: 'Order 1042',
    description: 'with `type: "text"` (required there): the value of the header\'s parameter',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_TEMPLATE_HEADER_TEXT)
  text?: string;

  @ApiPropertyOptional({
    type: MediaDto,
    description:
      'with `type` image (JPEG or PNG, at most 5 MB), video (MP4 or 3GPP, at most 16 MB) or document (PDF, at most 100 MB), required there: the file',
  })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => MediaDto)
  media?: MediaDto;
}

/** The parameter of one of a template's buttons, by the button's position. */
export class TemplateButtonDto {
  @ApiProperty({ minimum: 0, maximum: MAX_TEMPLATE_BUTTONS - 1, example: 0, description: "the button's position in the template, from 0; each at most once" })
  @IsInt({ message: INDEX_RULE })
  @Min(0, { message: INDEX_RULE })
  @Max(MAX_TEMPLATE_BUTTONS - 1, { message: INDEX_RULE })
  index: number;

  @ApiProperty({
    enum: TEMPLATE_BUTTON_TYPES,
    description: 'the kind of button: `url` (a link with a dynamic suffix), `quick_reply`, `copy_code` (a coupon code)',
  })
  @IsIn(TEMPLATE_BUTTON_TYPES, { message: 'sub_type must be url, quick_reply or copy_code' })
  sub_type: TemplateButtonType;

  @ApiProperty({
    maxLength: MAX_TEMPLATE_BUTTON_PARAMETER,
    pattern: NON_BLANK,
    example: 'order/1042',
    description: "a `url` button's suffix to its link, a `quick_reply`'s payload (it comes back with the tap), a `copy_code` button's code",
  })
  @IsString()
  @MaxLength(MAX_TEMPLATE_BUTTON_PARAMETER)
  parameter: string;
}

/** `header` of a template send. */
export const TemplateHeaderField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: TemplateHeaderDto,
      description: 'with `type: "template"` (a Cloud API template whose header takes a parameter): the header\'s text or file',
    }),
    OptionalNotNull(),
    IsObject(),
    ValidateNested(),
    Type(() => TemplateHeaderDto),
  );

/** `buttons` of a template send. */
export const TemplateButtonsField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: [TemplateButtonDto],
      maxItems: MAX_TEMPLATE_BUTTONS,
      description: 'with `type: "template"` (a Cloud API template with buttons that take a parameter): the parameter of each such button',
    }),
    OptionalNotNull(),
    IsArray({ message: BUTTONS_RULE }),
    ArrayMaxSize(MAX_TEMPLATE_BUTTONS, { message: BUTTONS_RULE }),
    ValidateNested({ each: true }),
    Type(() => TemplateButtonDto),
  );
