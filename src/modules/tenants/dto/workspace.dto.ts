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

/** A workspace in the signed-in user's list, with their role in it. */
export class WorkspaceOfUserResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: ROLES })
  role: Role;
}

export class WorkspaceResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: SUBSCRIPTION_STATUSES })
  subscription_status: SubscriptionStatus;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}
