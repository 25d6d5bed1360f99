import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../infra/database/sql-executor.js';
import type { Role } from '../tenants/entities/workspace-member.entity.js';
import type { SubscriptionStatus } from '../tenants/entities/workspace.entity.js';

export interface StillValid {
  /** API keys that are neither revoked nor expired. */
  keyIds: Set<string>;
  /** Live sessions whose user is still a member, with the role they hold now. */
  sessionRoles: Map<string, Role>;
  /** The workspace's subscription now (null: the workspace is gone). */
  subscriptionStatus: SubscriptionStatus | null;
}

/** The periodic recheck of open event streams: one query per kind for a workspace's streams. */
@Injectable()
export class StreamAccessRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  async stillValid(workspaceId: string, keyIds: string[], sessionIds: string[], now: Date): Promise<StillValid> {
    const keys: { id: string }[] = keyIds.length
      ? await this.sql.query(`SELECT id FROM api_keys WHERE workspace_id = $1 AND id = ANY($2::uuid[]) AND revoked_at IS NULL AND expires_at > $3`, [
          workspaceId,
          keyIds,
          now,
        ])
      : [];
    const sessions: { id: string; role: Role }[] = sessionIds.length
      ? await this.sql.query(
          `SELECT s.id, m.role FROM sessions s JOIN workspace_members m ON m.workspace_id = $1 AND m.user_id = s.user_id
            WHERE s.id = ANY($2::uuid[]) AND s.expires_at > $3`,
          [workspaceId, sessionIds, now],
        )
      : [];
    const [workspace] = (await this.sql.query(`SELECT subscription_status AS status FROM workspaces WHERE id = $1`, [workspaceId])) as {
      status: SubscriptionStatus;
    }[];
    return {
      keyIds: new Set(keys.map((k) => k.id)),
      sessionRoles: new Map(sessions.map((s) => [s.id, s.role])),
      subscriptionStatus: workspace?.status ?? null,
    };
  }
}
