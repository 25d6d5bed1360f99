import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, Length } from 'class-validator';
import type { ApiKeyScope } from '../../entities/api-key.entity.js';
import { API_KEY_SCOPES, toApiKeyScope } from '../api-key-format.js';

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

/** `POST /api/keys`. One message per field, so a 400 reads as one sentence per mistake. */
export class CreateApiKeyDto {
  @ApiProperty({ example: 'CRM sync', minLength: 1, maxLength: 100 })
  @Transform(trim)
  @Length(1, 100, { message: 'name is required (1 to 100 characters)' })
  name: string;

  @ApiProperty({
    enum: ['read', 'write', 'full', 'full_access'],
    description: '`full` and `full_access` are accepted as aliases of `write` and stored as `write`.',
  })
  // Aliases become `write` before validation, so the rest of the code only sees the two scopes.
  @Transform(({ value }: { value: unknown }) => toApiKeyScope(value) ?? value)
  @IsIn(API_KEY_SCOPES, { message: 'scope must be one of read, write, full, full_access' })
  scope: ApiKeyScope;
}
