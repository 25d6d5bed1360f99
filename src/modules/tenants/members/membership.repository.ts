import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { SubscriptionStatus } from '../entities/workspace.entity.js';
import type { Role } from '../entities/workspace-member.entity.js';

export interface Membership {
  role: Role;
  subscriptionStatus: SubscriptionStatus;
}

@Injectable()
export class MembershipRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** The user's role in the workspace and the workspace's subscription, in one query; null if not a member. */
  async find(workspaceId: string, userId: string): Promise<Membership | null> {
    const rows = await this.sql.query<Membership>(
      `SELECT m.role, w.subscription_status AS "subscriptionStatus"
         FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.workspace_id = $1 AND m.user_id = $2`,
      [workspaceId, userId],
    );
    return rows[0] ?? null;
  }
}
