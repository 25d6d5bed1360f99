import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, Length } from 'class-validator';
import type { ApiKeyScope } from '../../entities/api-key.entity.js';
import { API_KEY_SCOPES, toApiKeyScope } from '../api-key-format.js';

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);
const DEFAULT_SCOPE: ApiKeyScope = 'read';

/** `POST /api/keys`. One message per field, so a 400 reads as one sentence per mistake. */
export class CreateApiKeyDto {
  @ApiProperty({ example: 'CRM sync', minLength: 1, maxLength: 100 })
  @Transform(trim)
  @Length(1, 100, { message: 'name is required (1 to 100 characters)' })
  name: string;

  @ApiPropertyOptional({
    enum: ['read', 'write', 'full', 'full_access'],
    default: 'read',
    description: "`full` and `full_access` are accepted as aliases of `write` and stored as `write`. Left out: `read`, as the CLI's `issue-key` does.",
  })
  // Aliases become `write` before validation, so the rest of the code only sees the two scopes.
  @Transform(({ value }: { value: unknown }) => (value === undefined ? DEFAULT_SCOPE : (toApiKeyScope(value) ?? value)))
  @IsIn(API_KEY_SCOPES, { message: 'scope must be one of read, write, full, full_access' })
  // The least a key can do, when nobody said more (a field left out of the body is never transformed).
  scope: ApiKeyScope = DEFAULT_SCOPE;
}
