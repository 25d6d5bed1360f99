import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

/**
 * How long a process trusts what it learnt about a workspace. A change made in this process is
 * seen at once (`forget`); one made in another process (an `api` process, while a `worker`
 * ingests) within this long.
 */
export const AUTOMATED_CACHE_MS = 2_000;
const MAX_ENTRIES = 10_000;

/**
 * Which workspaces have an enabled automation, cached briefly: ingest asks for every message, and
 * only those workspaces pay for the transaction the automations' outbox row needs. Stale either
 * way is harmless for correctness: the row's own statement checks again, and a workspace that just
 * got its first automation is seen within `AUTOMATED_CACHE_MS`.
 */
@Injectable()
export class AutomatedWorkspaces {
  private readonly known = new Map<string, { automated: boolean; until: number }>();

  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  async has(workspaceId: string, now = Date.now()): Promise<boolean> {
    const cached = this.known.get(workspaceId);
    if (cached && cached.until > now) return cached.automated;
    const rows = await this.sql.query<{ automated: boolean }>(`SELECT EXISTS (SELECT 1 FROM automations WHERE workspace_id = $1 AND enabled) AS automated`, [
      workspaceId,
    ]);
    const automated = rows[0]?.automated === true;
    if (this.known.size >= MAX_ENTRIES) this.known.clear();
    this.known.set(workspaceId, { automated, until: now + AUTOMATED_CACHE_MS });
    return automated;
  }

  /** After a change to the workspace's automations in this process. */
  forget(workspaceId: string): void {
    this.known.delete(workspaceId);
  }
}
