import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { ROLES, type Role } from '../entities/workspace-member.entity.js';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../entities/workspace.entity.js';

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

export class WorkspaceNameDto {
  @ApiProperty({ example: 'Acme support', minLength: 1, maxLength: 100 })
  @Transform(trim)
  @IsString({ message: 'name must be a string' })
  @MinLength(1, { message: 'name is required' })
  @MaxLength(100, { message: 'name must be at most 100 characters' })
  name: string;
}

/**
 * The one workspace shape: every route that answers a workspace (create, list, get, rename, login,
 * me, accepting an invite) sends this, with the caller's role in it.
 */
export class WorkspaceResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: SUBSCRIPTION_STATUSES })
  subscription_status: SubscriptionStatus;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ enum: ROLES, description: "The caller's role in the workspace (`agent` for an API key, which acts as an agent)" })
  role: Role;
}
