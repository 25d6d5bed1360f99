import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTypeormTransaction, type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { SubscriptionStatus } from '../entities/workspace.entity.js';
import type { Role } from '../entities/workspace-member.entity.js';
import { WorkspaceHooks } from './workspace-hooks.js';

export interface WorkspaceRecord {
  id: string;
  name: string;
  subscriptionStatus: SubscriptionStatus;
  createdAt: Date;
}

export interface NewWorkspace {
  name: string;
  /** `none` unless an operator creates a workspace that already pays. */
  subscriptionStatus?: SubscriptionStatus;
}

/** A workspace as one of its members sees it in a list. */
export interface WorkspaceOfUser extends WorkspaceRecord {
  role: Role;
}

const COLUMNS = `id, name, subscription_status AS "subscriptionStatus", created_at AS "createdAt"`;

@Injectable()
export class WorkspaceRepository {
  private readonly sql: SqlExecutor;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly hooks: WorkspaceHooks,
  ) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * The workspace and its first owner, in one transaction (the caller's `tx` when given, e.g. the
   * operator CLI's, which creates the owner in the same one): there is never an ownerless
   * workspace. The only place a workspace is created, so the API and the CLI set up the same thing,
   * including what other modules attach to every workspace (WorkspaceHooks, same transaction).
   */
  createWithOwner(ownerUserId: string, workspace: NewWorkspace, tx?: SqlExecutor): Promise<WorkspaceOfUser> {
    const create = async (db: SqlExecutor): Promise<WorkspaceOfUser> => {
      const rows = await db.query<WorkspaceRecord>(`INSERT INTO workspaces (name, subscription_status) VALUES ($1, $2) RETURNING ${COLUMNS}`, [
        workspace.name,
        workspace.subscriptionStatus ?? 'none',
      ]);
      const created = rows[0]!;
      await db.execute(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'owner')`, [created.id, ownerUserId]);
      await this.hooks.workspaceCreated({ workspaceId: created.id, tx: db });
      return { ...created, role: 'owner' };
    };
    return tx ? create(tx) : inTypeormTransaction(this.db, create);
  }

  /** Every workspace the user belongs to (across tenants by nature: it is the user's own list). */
  listForUser(userId: string): Promise<WorkspaceOfUser[]> {
    return this.sql.query(
      `SELECT w.id, w.name, w.subscription_status AS "subscriptionStatus", w.created_at AS "createdAt", m.role
         FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.user_id = $1
        ORDER BY w.created_at, w.id`,
      [userId],
    );
  }

  async find(workspaceId: string): Promise<WorkspaceRecord | null> {
    const rows = await this.sql.query<WorkspaceRecord>(`SELECT ${COLUMNS} FROM workspaces WHERE id = $1`, [workspaceId]);
    return rows[0] ?? null;
  }

  async rename(workspaceId: string, name: string): Promise<WorkspaceRecord | null> {
    const rows = await this.sql.query<WorkspaceRecord>(`UPDATE workspaces SET name = $2, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`, [
      workspaceId,
      name,
    ]);
    return rows[0] ?? null;
  }
}
