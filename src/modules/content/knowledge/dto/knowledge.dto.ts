import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Length } from 'class-validator';
import { OptionalNotNull } from '../../../../infra/http/optional-not-null.decorator.js';

export const ARTICLE_TITLE_MAX = 200;
export const ARTICLE_BODY_MAX = 20_000;

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);
const TITLE = `title is required (1 to ${ARTICLE_TITLE_MAX} characters)`;
const BODY = `body is required (1 to ${ARTICLE_BODY_MAX} characters)`;

/** `POST /api/knowledge`. */
export class CreateArticleDto {
  @ApiProperty({ example: 'Refund policy', minLength: 1, maxLength: ARTICLE_TITLE_MAX })
  @Transform(trim)
  @Length(1, ARTICLE_TITLE_MAX, { message: TITLE })
  title: string;

  @ApiProperty({ example: 'You can ask for a refund within 30 days of purchase.', minLength: 1, maxLength: ARTICLE_BODY_MAX })
  @Transform(trim)
  @Length(1, ARTICLE_BODY_MAX, { message: BODY })
  body: string;
}

/** `PATCH /api/knowledge/:id`: the fields present change, absent ones stay; none may be
 * emptied, so `null` is 400 with the field's rule. */
export class UpdateArticleDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: ARTICLE_TITLE_MAX })
  @OptionalNotNull()
  @Transform(trim)
  @Length(1, ARTICLE_TITLE_MAX, { message: TITLE })
  title?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: ARTICLE_BODY_MAX })
  @OptionalNotNull()
  @Transform(trim)
  @Length(1, ARTICLE_BODY_MAX, { message: BODY })
  body?: string;
}
