import { ApiProperty } from '@nestjs/swagger';
import { WorkspaceResponse } from '../../tenants/dto/workspace.dto.js';

export class UserResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  email: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'The address was confirmed through the emailed link' })
  email_verified: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class RegisteredResponse {
  @ApiProperty({ type: UserResponse })
  user: UserResponse;
}

export class SignedInResponse {
  @ApiProperty({ type: UserResponse })
  user: UserResponse;

  @ApiProperty({ type: [WorkspaceResponse] })
  workspaces: WorkspaceResponse[];
}

export class ProvidersResponse {
  @ApiProperty({ example: true })
  password: true;

  @ApiProperty({ description: 'Google sign-in is configured' })
  google: boolean;
}

export class GooglePendingResponse {
  @ApiProperty({ example: 'ada@gmail.com', description: 'The Google account’s address (lower-cased): the new account’s email' })
  email: string;

  @ApiProperty({ example: 'Ada Lovelace', description: 'The name on the Google account' })
  name: string;
}
