import type { InviteResponse } from '../dto/invite.dto.js';
import type { InviteRecord } from './invite.repository.js';

export function toInviteResponse(invite: InviteRecord): InviteResponse {
  return {
    id: invite.id,
    email: invite.email,
    role: invite.role,
    created_at: invite.createdAt.toISOString(),
    expires_at: invite.expiresAt.toISOString(),
  };
}
