import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

/** One stored answer of WhatsApp about a phone. */
export interface StoredNumberCheck {
  phone: string;
  exists: boolean;
  jid: string | null;
  checkedAt: Date;
}

/** SQL of `scan_number_checks`: the latest answer per workspace and phone. */
@Injectable()
export class NumberCheckRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  async find(workspaceId: string, phone: string): Promise<StoredNumberCheck | null> {
    const rows = await this.sql.query<StoredNumberCheck>(
      `SELECT phone, "exists", jid, checked_at AS "checkedAt" FROM scan_number_checks WHERE workspace_id = $1 AND phone = $2`,
      [workspaceId, phone],
    );
    return rows[0] ?? null;
  }

  /** Stores an answer, replacing the phone's earlier one. */
  async save(workspaceId: string, check: StoredNumberCheck): Promise<void> {
    await this.sql.execute(
      `INSERT INTO scan_number_checks (workspace_id, phone, "exists", jid, checked_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (workspace_id, phone) DO UPDATE SET "exists" = EXCLUDED."exists", jid = EXCLUDED.jid, checked_at = EXCLUDED.checked_at`,
      [workspaceId, check.phone, check.exists, check.jid, check.checkedAt],
    );
  }
}
