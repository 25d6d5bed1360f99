import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { SubscriptionStatus } from '../modules/tenants/entities/workspace.entity.js';

export interface OperatorWorkspace {
  id: string;
  name: string;
  subscriptionStatus: SubscriptionStatus;
  createdAt: Date;
}

export interface OperatorUser {
  id: string;
  email: string;
}

const WORKSPACE_COLUMNS = `id, name, subscription_status AS "subscriptionStatus", created_at AS "createdAt"`;

/**
 * The few writes operators script. Plain SQL on purpose: the CLI must keep working whatever the
 * HTTP-side services need (mail, queues), and it only ever touches these three tables.
 */
@Injectable()
export class OperatorRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async findWorkspace(workspaceId: string): Promise<OperatorWorkspace | null> {
    const rows: OperatorWorkspace[] = await this.db.query(`SELECT ${WORKSPACE_COLUMNS} FROM workspaces WHERE id = $1`, [workspaceId]);
    return rows[0] ?? null;
  }

  async setSubscription(workspaceId: string, status: SubscriptionStatus): Promise<OperatorWorkspace | null> {
    // TypeORM answers an UPDATE with `[rows, affected]`.
    const [rows]: [OperatorWorkspace[], number] = await this.db.query(
      `UPDATE workspaces SET subscription_status = $2, updated_at = now() WHERE id = $1 RETURNING ${WORKSPACE_COLUMNS}`,
      [workspaceId, status],
    );
    return rows[0] ?? null;
  }

  async findUserByEmail(tx: EntityManager, email: string): Promise<OperatorUser | null> {
    const rows: OperatorUser[] = await tx.query(`SELECT id, email FROM users WHERE email = $1`, [email]);
    return rows[0] ?? null;
  }

  /** The operator vouches for the address, so the account starts verified. */
  async insertUser(tx: EntityManager, user: { email: string; name: string; passwordHash: string }): Promise<OperatorUser> {
    const rows: OperatorUser[] = await tx.query(
      `INSERT INTO users (email, name, password_hash, email_verified_at) VALUES ($1, $2, $3, now()) RETURNING id, email`,
      [user.email, user.name, user.passwordHash],
    );
    return rows[0]!;
  }

  async insertWorkspaceWithOwner(
    tx: EntityManager,
    name: string,
    status: SubscriptionStatus,
    ownerId: string,
  ): Promise<OperatorWorkspace> {
    const rows: OperatorWorkspace[] = await tx.query(
      `INSERT INTO workspaces (name, subscription_status) VALUES ($1, $2) RETURNING ${WORKSPACE_COLUMNS}`,
      [name, status],
    );
    const workspace = rows[0]!;
    await tx.query(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'owner')`, [workspace.id, ownerId]);
    return workspace;
  }
}
