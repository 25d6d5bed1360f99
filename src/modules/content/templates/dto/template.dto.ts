import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, Length, Matches } from 'class-validator';
import { OptionalNotNull } from '../../../../infra/http/optional-not-null.decorator.js';

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
/** The Cloud API's limit of a template body; local templates keep to it so they work on both channels. */
export const TEMPLATE_BODY_MAX = 1024;

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);
const upper = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim().toUpperCase() : value);

const NAME = 'name is required (1 to 512 characters)';
const LANGUAGE = 'language must be a language code such as en, en_US or pt_BR';
const CATEGORY = 'category must be MARKETING, UTILITY or AUTHENTICATION';
const BODY = `body is required (1 to ${TEMPLATE_BODY_MAX} characters)`;
// `en`, `en_US`, `pt_BR`, `zh_Hant_TW`: the Cloud API's codes, `-` accepted too.
const LANGUAGE_CODE = /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8}){0,2}$/;

/** `POST /api/templates`. */
export class CreateTemplateDto {
  @ApiProperty({ example: 'order_update', minLength: 1, maxLength: 512 })
  @Transform(trim)
  @Length(1, 512, { message: NAME })
  name: string;

  @ApiPropertyOptional({ example: 'en_US', default: 'en' })
  @OptionalNotNull()
  @Transform(trim)
  @Matches(LANGUAGE_CODE, { message: LANGUAGE })
  language?: string;

  @ApiPropertyOptional({ enum: TEMPLATE_CATEGORIES, default: 'UTILITY', description: 'case-insensitive; stored in upper case' })
  @OptionalNotNull()
  @Transform(upper)
  @IsIn(TEMPLATE_CATEGORIES, { message: CATEGORY })
  category?: string;

  @ApiProperty({ example: 'Hello {{1}}, your order {{2}} has shipped.', minLength: 1, maxLength: TEMPLATE_BODY_MAX })
  @Transform(trim)
  @Length(1, TEMPLATE_BODY_MAX, { message: BODY })
  body: string;
}

/** `PATCH /api/templates/:id`: the fields present change, absent ones stay; none may be
 * emptied, so `null` is 400 with the field's rule. */
export class UpdateTemplateDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 512 })
  @OptionalNotNull()
  @Transform(trim)
  @Length(1, 512, { message: NAME })
  name?: string;

  @ApiPropertyOptional({ example: 'en_US' })
  @OptionalNotNull()
  @Transform(trim)
  @Matches(LANGUAGE_CODE, { message: LANGUAGE })
  language?: string;

  @ApiPropertyOptional({ enum: TEMPLATE_CATEGORIES })
  @OptionalNotNull()
  @Transform(upper)
  @IsIn(TEMPLATE_CATEGORIES, { message: CATEGORY })
  category?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: TEMPLATE_BODY_MAX })
  @OptionalNotNull()
  @Transform(trim)
  @Length(1, TEMPLATE_BODY_MAX, { message: BODY })
  body?: string;
}
