import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { ROLES, type Role } from '../entities/workspace-member.entity.js';
import { WorkspaceResponse } from './workspace.dto.js';

const normaliseEmail = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim().toLowerCase() : value);

export class CreateInviteDto {
  @ApiProperty({ example: 'colleague@example.com', description: 'Stored lower-cased' })
  @Transform(normaliseEmail)
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  email: string;

  @ApiProperty({ enum: ROLES, description: 'Only an owner may invite an owner' })
  @IsIn(ROLES, { message: `role must be one of ${ROLES.join(', ')}` })
  role: Role;
}

export class AcceptInviteDto {
  @ApiProperty({ description: 'The token from the invite link' })
  @IsString({ message: 'token must be a string' })
  @MinLength(1, { message: 'token is required' })
  @MaxLength(200, { message: 'token must be at most 200 characters' })
  token: string;
}

export class InviteResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ enum: ROLES })
  role: Role;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;
}

export class AcceptInviteResponse {
  @ApiProperty({ type: WorkspaceResponse, description: 'The joined workspace, in the one workspace shape' })
  workspace: WorkspaceResponse;
}
