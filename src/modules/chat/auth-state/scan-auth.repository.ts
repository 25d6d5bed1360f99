import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTypeormTransaction, type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

/** One stored row as the repository sees it: already hashed id, already encrypted value. */
export interface ScanAuthRow {
  type: string;
  keyId: string;
  /** Ciphertext; null deletes the row. */
  value: string | null;
}

/** SQL of `scan_auth_keys`. Every method takes the workspace id first; nothing else is read. */
@Injectable()
export class ScanAuthRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** One query for every id of one type; ids without a row are absent from the result. */
  async read(workspaceId: string, type: string, keyIds: readonly string[]): Promise<Map<string, string>> {
    if (keyIds.length === 0) return new Map();
    const rows = await this.sql.query<{ keyId: string; value: string }>(
      `SELECT key_id AS "keyId", value FROM scan_auth_keys WHERE workspace_id = $1 AND type = $2 AND key_id = ANY($3::text[])`,
      [workspaceId, type, [...keyIds]],
    );
    return new Map(rows.map((row) => [row.keyId, row.value]));
  }

  /**
   * Upserts and deletes in one transaction: Baileys hands over related keys together (a session
   * with its identity key, 812 pre-keys at once), and half of such a write is what later shows as
   * "Bad MAC". Batched through `unnest`, so one write is two statements whatever its size. Later
   * rows win over earlier ones for the same key, as they would one by one.
   */
  async write(workspaceId: string, rows: readonly ScanAuthRow[]): Promise<void> {
    const last = new Map<string, ScanAuthRow>();
    for (const row of rows) {
      const id = `${row.type}\u0000${row.keyId}`;
      last.delete(id);
      last.set(id, row);
    }
    const upserts = [...last.values()].filter((row): row is ScanAuthRow & { value: string } => row.value !== null);
    const deletes = [...last.values()].filter((row) => row.value === null);
    if (upserts.length === 0 && deletes.length === 0) return;
    await inTypeormTransaction(this.db, async (tx) => {
      if (deletes.length > 0) {
        await tx.query(
          `DELETE FROM scan_auth_keys k USING unnest($2::text[], $3::text[]) AS d(type, key_id)
            WHERE k.workspace_id = $1 AND k.type = d.type AND k.key_id = d.key_id`,
          [workspaceId, deletes.map((row) => row.type), deletes.map((row) => row.keyId)],
        );
      }
      if (upserts.length > 0) {
        await tx.query(
          `INSERT INTO scan_auth_keys (workspace_id, type, key_id, value, updated_at)
           SELECT $1, u.type, u.key_id, u.value, now() FROM unnest($2::text[], $3::text[], $4::text[]) AS u(type, key_id, value)
           ON CONFLICT (workspace_id, type, key_id) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
          [workspaceId, upserts.map((row) => row.type), upserts.map((row) => row.keyId), upserts.map((row) => row.value)],
        );
      }
    });
  }

  async clear(workspaceId: string): Promise<void> {
    await this.sql.query(`DELETE FROM scan_auth_keys WHERE workspace_id = $1`, [workspaceId]);
  }
}
