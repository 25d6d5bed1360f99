import { Injectable } from '@nestjs/common';
import { hashPassword } from '../infra/crypto/hashing.js';
import { API_KEY_PATTERN } from '../modules/auth/api-keys/api-key-format.js';
import { ApiKeyCache } from '../modules/auth/api-keys/api-key-cache.js';
import { ApiKeyService } from '../modules/auth/api-keys/api-key.service.js';
import type { ApiKeyScope } from '../modules/auth/entities/api-key.entity.js';
import { AccessRevocations } from '../modules/events/access-revocations.js';
import { ACTIVE_SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../modules/tenants/entities/workspace.entity.js';
import { WorkspaceRepository, type WorkspaceRecord } from '../modules/tenants/workspaces/workspace.repository.js';
import { OperatorRepository } from './operator.repository.js';

/** A failure the operator can fix (bad argument, unknown workspace): printed, exit code 1. */
export class OperatorError extends Error {}

export interface WorkspaceOutput {
  id: string;
  name: string;
  subscription_status: SubscriptionStatus;
  created_at: string;
}

export interface CreatedWorkspaceOutput {
  workspace: WorkspaceOutput;
  owner: { id: string; email: string; created: boolean };
}

export interface IssuedKeyOutput {
  id: string;
  workspace_id: string;
  name: string;
  scope: ApiKeyScope;
  key: string;
  prefix: string;
  created_at: string;
  expires_at: string;
}

const toOutput = (w: WorkspaceRecord): WorkspaceOutput => ({
  id: w.id,
  name: w.name,
  subscription_status: w.subscriptionStatus,
  created_at: new Date(w.createdAt).toISOString(),
});

/** What `npm run cli` can do, callable in-process (tests) as well as from the command line. */
@Injectable()
export class OperatorService {
  constructor(
    private readonly operator: OperatorRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly apiKeys: ApiKeyService,
    private readonly keyCache: ApiKeyCache,
    private readonly revocations: AccessRevocations,
  ) {}

  async setSubscription(workspaceId: string, status: SubscriptionStatus): Promise<WorkspaceOutput> {
    const workspace = await this.operator.setSubscription(workspaceId, status);
    if (!workspace) throw new OperatorError(`workspace not found: ${workspaceId}`);
    // API key lookups are cached with the subscription status; make every process re-read it.
    await this.keyCache.invalidate().catch(() => {
      throw new OperatorError('subscription saved, but Redis is unreachable: API keys see the change within 5 minutes');
    });
    // A lapse ends the workspace's open event streams on every replica, as a revoked key does
    // (after the cache: a client reconnecting at its stream's end must meet the new status).
    if (!ACTIVE_SUBSCRIPTION_STATUSES.includes(status)) await this.revocations.publish({ kind: 'subscription', workspaceId });
    return toOutput(workspace);
  }

  /**
   * A workspace owned by `ownerEmail`. The user is created when missing (then a password is
   * required); an existing user keeps their password, so a re-run never resets anyone's login.
   */
  async createWorkspace(input: {
    name: string;
    ownerEmail: string;
    ownerPassword?: string;
    ownerName?: string;
    subscription: SubscriptionStatus;
  }): Promise<CreatedWorkspaceOutput> {
    const email = input.ownerEmail.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new OperatorError(`invalid email: ${input.ownerEmail}`);
    if (input.ownerPassword !== undefined && input.ownerPassword.length < 8) throw new OperatorError('password must be at least 8 characters');
    // Hash outside the transaction: scrypt is slow on purpose.
    const passwordHash = input.ownerPassword === undefined ? undefined : await hashPassword(input.ownerPassword);
    return this.operator.transaction(async (tx) => {
      let owner = await this.operator.findUserByEmail(tx, email);
      const created = !owner;
      if (!owner) {
        if (!passwordHash) throw new OperatorError(`no user with email ${email}: pass --owner-password to create one`);
        owner = await this.operator.insertUser(tx, { email, name: input.ownerName ?? '', passwordHash });
      }
      const workspace = await this.workspaces.createWithOwner(owner.id, { name: input.name, subscriptionStatus: input.subscription }, tx);
      return { workspace: toOutput(workspace), owner: { id: owner.id, email: owner.email, created } };
    });
  }

  /** A new key; the only time its full text exists outside the caller's hands is this output. */
  async issueKey(workspaceId: string, name: string, scope: ApiKeyScope): Promise<IssuedKeyOutput> {
    if (!(await this.workspaces.find(workspaceId))) throw new OperatorError(`workspace not found: ${workspaceId}`);
    const { entity, key } = await this.apiKeys.create(workspaceId, name, scope, null);
    if (!API_KEY_PATTERN.test(key)) throw new Error('generated key has an unexpected format');
    return {
      id: entity.id,
      workspace_id: entity.workspaceId,
      name: entity.name,
      scope: entity.scope,
      key,
      prefix: entity.prefix,
      created_at: new Date(entity.createdAt).toISOString(),
      expires_at: new Date(entity.expiresAt).toISOString(),
    };
  }
}
