import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

export interface StoredCallback {
  id: string;
  bodySha256: string;
  body: Buffer;
  receivedAt: Date;
}

/**
 * SQL of `meta_callbacks`. Callbacks are platform-level (they name numbers, not workspaces), so
 * these methods take no workspace id.
 */
@Injectable()
export class MetaCallbackRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** Stores a new callback and answers its id; null when the same bytes were stored before (a provider retry). */
  async store(bodySha256: string, body: Buffer): Promise<string | null> {
    const rows = await this.sql.query<{ id: string }>(
      `INSERT INTO meta_callbacks (body_sha256, body) VALUES ($1, $2) ON CONFLICT (body_sha256) DO NOTHING RETURNING id`,
      [bodySha256, body],
    );
    return rows[0]?.id ?? null;
  }

  /** The callback while it waits to be processed; null once processed (or purged). */
  async pending(id: string): Promise<StoredCallback | null> {
    const rows = await this.sql.query<StoredCallback>(
      `SELECT id, body_sha256 AS "bodySha256", body, received_at AS "receivedAt" FROM meta_callbacks WHERE id = $1 AND processed_at IS NULL AND body IS NOT NULL`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Marks it processed and drops the body, in the caller's transaction (with the forwarded copies). */
  async finish(id: string, tx: SqlExecutor): Promise<void> {
    await tx.query(`UPDATE meta_callbacks SET processed_at = now(), body = NULL WHERE id = $1`, [id]);
  }

  /**
   * Callbacks still waiting that were received before `before` (their job may have been lost), a
   * page at a time in id order after `after`.
   */
  async waiting(before: Date, after: string | null, limit: number): Promise<string[]> {
    const rows = await this.sql.query<{ id: string }>(
      `SELECT id FROM meta_callbacks
        WHERE processed_at IS NULL AND received_at < $1 AND ($2::uuid IS NULL OR id > $2::uuid)
        ORDER BY id LIMIT $3`,
      [before, after, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Forgets callbacks older than `before`: the provider retries for 7 days, so their hashes are no longer needed. */
  async purge(before: Date): Promise<number> {
    const result = await this.sql.query<unknown>(`DELETE FROM meta_callbacks WHERE received_at < $1 RETURNING id`, [before]);
    return result.length;
  }
}
