import { ApiProperty } from '@nestjs/swagger';
import type { ApiKeyScope } from '../../entities/api-key.entity.js';

/** An API key as listed: never the key itself, never its hash. */
export class ApiKeyResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid', description: 'The workspace the key acts in' })
  workspace_id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: ['read', 'write'] })
  scope: ApiKeyScope;

  @ApiProperty({ example: 'pk_live_1a2b3c4d', description: 'The first characters of the key, to tell keys apart.' })
  prefix: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time', description: '365 days after creation.' })
  expires_at: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Kept to the minute.' })
  last_used_at: string | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  revoked_at: string | null;
}

/** The answer to `POST /api/keys`: the list item plus `key`, the only response that ever carries it. */
export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({ example: 'pk_live_0123456789abcdef0123456789abcdef0123456789abcdef', description: 'Shown this once.' })
  key: string;
}
