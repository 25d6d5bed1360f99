import type { Role } from '../tenants/entities/workspace-member.entity.js';
import type { AccessRevocation } from './access-revocations.js';

/**
 * What let a stream open: an API key, or a session whose user held `role` in the workspace. The
 * stream's filter (what an agent may see) was decided from it, so when any part of it changes the
 * stream ends and the client reconnects under whatever is true now (or is refused).
 */
export interface StreamCredential {
  workspaceId: string;
  apiKeyId: string | null;
  sessionId: string | null;
  userId: string | null;
  role: Role;
}

export function revokedBy(credential: StreamCredential, revocation: AccessRevocation): boolean {
  switch (revocation.kind) {
    case 'api_key':
      return credential.apiKeyId === revocation.keyId;
    case 'session':
      return credential.sessionId === revocation.sessionId;
    case 'user':
      return credential.sessionId !== null && credential.userId === revocation.userId;
    case 'member':
      return credential.sessionId !== null && credential.workspaceId === revocation.workspaceId && credential.userId === revocation.userId;
    case 'subscription':
      return credential.workspaceId === revocation.workspaceId;
  }
}
