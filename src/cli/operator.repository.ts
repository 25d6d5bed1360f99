import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTypeormTransaction, type SqlExecutor, sqlExecutorOf } from '../infra/database/sql-executor.js';
import type { SubscriptionStatus } from '../modules/tenants/entities/workspace.entity.js';
import type { WorkspaceRecord } from '../modules/tenants/workspaces/workspace.repository.js';

export interface OperatorUser {
  id: string;
  email: string;
}

const WORKSPACE_COLUMNS = `id, name, subscription_status AS "subscriptionStatus", created_at AS "createdAt"`;

/**
 * The writes only operators make. Creating and reading workspaces goes through
 * WorkspaceRepository, so a workspace made by the CLI is set up exactly like one made through the
 * API; this repository holds what the API has no route for.
 */
@Injectable()
export class OperatorRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return inTypeormTransaction(this.db, work);
  }

  async setSubscription(workspaceId: string, status: SubscriptionStatus): Promise<WorkspaceRecord | null> {
    const rows = await this.sql.query<WorkspaceRecord>(
      `UPDATE workspaces SET subscription_status = $2, updated_at = now() WHERE id = $1 RETURNING ${WORKSPACE_COLUMNS}`,
      [workspaceId, status],
    );
    return rows[0] ?? null;
  }

  async findUserByEmail(tx: SqlExecutor, email: string): Promise<OperatorUser | null> {
    const rows = await tx.query<OperatorUser>(`SELECT id, email FROM users WHERE email = $1`, [email]);
    return rows[0] ?? null;
  }

  /** The operator vouches for the address, so the account starts verified. */
  async insertUser(tx: SqlExecutor, user: { email: string; name: string; passwordHash: string }): Promise<OperatorUser> {
    const rows = await tx.query<OperatorUser>(
      `INSERT INTO users (email, name, password_hash, email_verified_at) VALUES ($1, $2, $3, now()) RETURNING id, email`,
      [user.email, user.name, user.passwordHash],
    );
    return rows[0]!;
  }
}
