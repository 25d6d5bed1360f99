import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Length, Matches } from 'class-validator';
import { UUID_SHAPE } from '../../dto/uuid-shape.js';
import { OptionalNotNull } from '../../../../infra/http/optional-not-null.decorator.js';

export const LABEL_NAME_MAX = 50;
/** The colour a label takes when created without one. */
export const DEFAULT_LABEL_COLOR = '#1f6feb';
export const LABEL_NAME_RULE = `name is required (1 to ${LABEL_NAME_MAX} characters)`;
export const LABEL_COLOR_RULE = 'color must be a hex color like #1f6feb';
export const LABEL_ID_RULE = 'label_id must be a label id';
const HEX_COLOR = /^#[0-9a-f]{6}$/;

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);
// Stored lower-cased, so `#1F6FEB` and `#1f6feb` are one colour.
const lower = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** `POST /api/labels`. */
export class CreateLabelDto {
  @ApiProperty({ example: 'VIP', minLength: 1, maxLength: LABEL_NAME_MAX, description: 'unique in the workspace, whatever the case' })
  @Transform(trim)
  @Length(1, LABEL_NAME_MAX, { message: LABEL_NAME_RULE })
  name: string;

  @ApiPropertyOptional({ example: '#1f6feb', default: DEFAULT_LABEL_COLOR, pattern: '^#[0-9a-fA-F]{6}$', description: 'stored in lower case' })
  @OptionalNotNull()
  @Transform(lower)
  @Matches(HEX_COLOR, { message: LABEL_COLOR_RULE })
  color?: string;
}

/** `PATCH /api/labels/:id`: the fields present change; neither may be null. */
export class UpdateLabelDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: LABEL_NAME_MAX })
  @OptionalNotNull()
  @Transform(trim)
  @Length(1, LABEL_NAME_MAX, { message: LABEL_NAME_RULE })
  name?: string;

  @ApiPropertyOptional({ example: '#d1242f', pattern: '^#[0-9a-fA-F]{6}$' })
  @OptionalNotNull()
  @Transform(lower)
  @Matches(HEX_COLOR, { message: LABEL_COLOR_RULE })
  color?: string;
}

/** `POST /api/conversations/:id/labels` and `POST /api/contacts/:id/labels`. */
export class ApplyLabelDto {
  @ApiProperty({ format: 'uuid', description: 'a label of this workspace (`GET /api/labels`)' })
  @Matches(UUID_SHAPE, { message: LABEL_ID_RULE })
  label_id: string;
}

export class LabelResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'VIP' })
  name: string;

  @ApiProperty({ example: '#1f6feb', description: '`#rrggbb`, lower case' })
  color: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}
