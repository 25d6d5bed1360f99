import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTypeormTransaction, type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { Role } from '../entities/workspace-member.entity.js';

export interface MemberRecord {
  userId: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: Date;
}

const SELECT_MEMBER = `SELECT m.user_id AS "userId", u.email, u.name, m.role, m.created_at AS "joinedAt"
                         FROM workspace_members m JOIN users u ON u.id = m.user_id`;

/**
 * Members of one workspace. Methods that take a `SqlExecutor` run inside the caller's transaction
 * (see `withOwnersLocked`).
 */
@Injectable()
export class MemberRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  list(workspaceId: string): Promise<MemberRecord[]> {
    return this.sql.query(`${SELECT_MEMBER} WHERE m.workspace_id = $1 ORDER BY m.created_at, u.email`, [workspaceId]);
  }

  /**
   * Runs `work` in a transaction holding a lock on the workspace row, so two owners demoting or
   * removing each other at the same moment cannot both pass the last-owner check.
   */
  withOwnersLocked<T>(workspaceId: string, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return inTypeormTransaction(this.db, async (tx) => {
      await tx.query(`SELECT id FROM workspaces WHERE id = $1 FOR UPDATE`, [workspaceId]);
      return work(tx);
    });
  }

  async find(workspaceId: string, userId: string, q: SqlExecutor = this.sql): Promise<MemberRecord | null> {
    const rows = await q.query<MemberRecord>(`${SELECT_MEMBER} WHERE m.workspace_id = $1 AND m.user_id = $2`, [workspaceId, userId]);
    return rows[0] ?? null;
  }

  async countOwners(workspaceId: string, q: SqlExecutor = this.sql): Promise<number> {
    const rows = await q.query<{ count: string }>(`SELECT count(*) AS count FROM workspace_members WHERE workspace_id = $1 AND role = 'owner'`, [workspaceId]);
    return Number(rows[0]?.count ?? 0);
  }

  async updateRole(workspaceId: string, userId: string, role: Role, q: SqlExecutor = this.sql): Promise<void> {
    await q.execute(`UPDATE workspace_members SET role = $3 WHERE workspace_id = $1 AND user_id = $2`, [workspaceId, userId, role]);
  }

  async remove(workspaceId: string, userId: string, q: SqlExecutor = this.sql): Promise<void> {
    await q.execute(`DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`, [workspaceId, userId]);
  }

  async isMemberByEmail(workspaceId: string, email: string): Promise<boolean> {
    const rows = await this.sql.query<unknown>(
      `SELECT 1 FROM workspace_members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = $1 AND u.email = $2`,
      [workspaceId, email],
    );
    return rows.length > 0;
  }
}
