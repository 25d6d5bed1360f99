import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { hashPassword } from '../../src/infra/crypto/hashing.js';
import { ApiKeyService } from '../../src/modules/auth/api-keys/api-key.service.js';
import type { ApiKeyScope } from '../../src/modules/auth/entities/api-key.entity.js';
import { SESSION_COOKIE } from '../../src/modules/auth/sessions/session-cookie.js';
import { SessionService } from '../../src/modules/auth/sessions/session.service.js';
import type { SubscriptionStatus } from '../../src/modules/tenants/entities/workspace.entity.js';
import type { Role } from '../../src/modules/tenants/entities/workspace-member.entity.js';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  password: string;
}

export interface TestWorkspace {
  id: string;
  name: string;
}

// Hashing is deliberately slow; tests share one hash of the common password.
const DEFAULT_PASSWORD = 'correct horse battery staple';
let defaultPasswordHash: Promise<string> | undefined;

const unique = (): string => randomBytes(5).toString('hex');

/**
 * Test data written straight to the database (or through the real services where a secret must
 * be generated), so a test states only what matters to it.
 */
export class Factories {
  private readonly db: DataSource;

  constructor(private readonly app: INestApplication) {
    this.db = app.get<DataSource>(getDataSourceToken());
  }

  async user(overrides: { email?: string; name?: string; password?: string; verified?: boolean } = {}): Promise<TestUser> {
    const password = overrides.password ?? DEFAULT_PASSWORD;
    const hash = overrides.password ? await hashPassword(password) : await (defaultPasswordHash ??= hashPassword(DEFAULT_PASSWORD));
    const email = (overrides.email ?? `user-${unique()}@example.test`).toLowerCase();
    const name = overrides.name ?? `User ${unique()}`;
    const rows: { id: string }[] = await this.db.query(
      `INSERT INTO users (email, name, password_hash, email_verified_at) VALUES ($1, $2, $3, $4) RETURNING id`,
      [email, name, hash, overrides.verified === false ? null : new Date()],
    );
    return { id: rows[0]!.id, email, name, password };
  }

  async workspace(overrides: { name?: string; subscriptionStatus?: SubscriptionStatus } = {}): Promise<TestWorkspace> {
    const name = overrides.name ?? `Workspace ${unique()}`;
    const rows: { id: string }[] = await this.db.query(`INSERT INTO workspaces (name, subscription_status) VALUES ($1, $2) RETURNING id`, [
      name,
      overrides.subscriptionStatus ?? 'none',
    ]);
    return { id: rows[0]!.id, name };
  }

  async member(workspaceId: string, userId: string, role: Role): Promise<void> {
    await this.db.query(
      `INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, $3)
       ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
      [workspaceId, userId, role],
    );
  }

  /** A user who is a member of `workspaceId` with `role`, plus a signed-in cookie for them. */
  async signedInMember(workspaceId: string, role: Role): Promise<TestUser & { cookie: string }> {
    const user = await this.user();
    await this.member(workspaceId, user.id, role);
    return { ...user, cookie: await this.sessionCookie(user.id) };
  }

  /** A `Cookie` header value for a fresh session of `userId`. */
  async sessionCookie(userId: string): Promise<string> {
    const { token } = await this.app.get(SessionService).create(userId);
    return `${SESSION_COOKIE}=${token}`;
  }

  /** A new API key (the full `pk_live_…` string) for the workspace. */
  async apiKey(workspaceId: string, scope: ApiKeyScope = 'write', now?: Date): Promise<{ id: string; key: string }> {
    const { entity, key } = await this.app.get(ApiKeyService).create(workspaceId, `key ${unique()}`, scope, null, now);
    return { id: entity.id, key };
  }

  /** A workspace with a signed-in owner and a write key: the usual starting point. */
  async workspaceWithOwner(
    overrides: { subscriptionStatus?: SubscriptionStatus } = {},
  ): Promise<{ workspace: TestWorkspace; owner: TestUser & { cookie: string }; key: string }> {
    const workspace = await this.workspace(overrides);
    const owner = await this.signedInMember(workspace.id, 'owner');
    const { key } = await this.apiKey(workspace.id, 'write');
    return { workspace, owner, key };
  }
}
