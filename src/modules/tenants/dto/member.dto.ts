import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { ROLES, type Role } from '../entities/workspace-member.entity.js';

export class ChangeRoleDto {
  @ApiProperty({ enum: ROLES, description: 'Only an owner may make someone an owner or change an owner' })
  @IsIn(ROLES, { message: `role must be one of ${ROLES.join(', ')}` })
  role: Role;
}

export class MemberResponse {
  @ApiProperty({ format: 'uuid' })
  user_id: string;

  @ApiProperty()
  email: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: ROLES })
  role: Role;

  @ApiProperty({ format: 'date-time' })
  joined_at: string;
}
