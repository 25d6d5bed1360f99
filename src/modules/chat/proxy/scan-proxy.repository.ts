import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

/** SQL of `scan_proxies`: at most one row per workspace, its URL sealed by the caller. */
@Injectable()
export class ScanProxyRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** The sealed URL of the workspace's own proxy, or null when it has none. */
  async find(workspaceId: string): Promise<string | null> {
    const rows = await this.sql.query<{ sealedUrl: string }>(`SELECT sealed_url AS "sealedUrl" FROM scan_proxies WHERE workspace_id = $1`, [workspaceId]);
    return rows[0]?.sealedUrl ?? null;
  }

  async save(workspaceId: string, sealedUrl: string): Promise<void> {
    await this.sql.execute(
      `INSERT INTO scan_proxies (workspace_id, sealed_url) VALUES ($1, $2)
       ON CONFLICT (workspace_id) DO UPDATE SET sealed_url = EXCLUDED.sealed_url, updated_at = now()`,
      [workspaceId, sealedUrl],
    );
  }

  /** Whether there was a row to delete. */
  async delete(workspaceId: string): Promise<boolean> {
    return (await this.sql.execute(`DELETE FROM scan_proxies WHERE workspace_id = $1`, [workspaceId])) > 0;
  }
}
