import type { UserResponse } from '../dto/auth-responses.dto.js';
import type { UserRecord } from './user.repository.js';

export function toUserResponse(user: UserRecord): UserResponse {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    email_verified: user.emailVerifiedAt !== null,
    created_at: user.createdAt.toISOString(),
  };
}
