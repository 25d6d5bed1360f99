import type { SubscriptionStatus } from '../tenants/entities/workspace.entity.js';
import type { Role } from '../tenants/entities/workspace-member.entity.js';
import type { ApiKeyScope } from './entities/api-key.entity.js';

/** A signed-in Console user (cookie `svc_session`). */
export interface SessionPrincipal {
  type: 'session';
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  emailVerified: boolean;
}

/** An integration calling with `Authorization: Bearer pk_live_…`. */
export interface ApiKeyPrincipal {
  type: 'api_key';
  keyId: string;
  workspaceId: string;
  scope: ApiKeyScope;
  subscriptionStatus: SubscriptionStatus;
}

export type Principal = SessionPrincipal | ApiKeyPrincipal;

/**
 * Who acts in which workspace, resolved by the guard chain for every workspace route. Services
 * take it instead of reading the request, so rules (agent visibility, roles) live in one place.
 */
export interface WorkspaceActor {
  workspaceId: string;
  via: 'session' | 'api_key';
  /** The member's role; an API key acts as an agent that sees the whole inbox. */
  role: Role;
  userId: string | null;
  apiKeyId: string | null;
  subscriptionStatus: SubscriptionStatus;
  /** Owners, admins and API keys see every conversation; agents only unassigned or their own. */
  seesAllConversations: boolean;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      principal?: Principal;
      actor?: WorkspaceActor;
    }
  }
}
