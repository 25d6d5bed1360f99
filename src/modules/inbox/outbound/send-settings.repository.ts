import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { SendSettings } from './send-settings.js';

/** `send_settings`: a workspace's own sending settings (none: the SEND_* defaults). */
@Injectable()
export class SendSettingsRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  async find(workspaceId: string): Promise<SendSettings | null> {
    const rows = await this.sql.query<SendSettings>(`SELECT ${SELECTED} FROM send_settings WHERE workspace_id = $1`, [workspaceId]);
    return rows[0] ?? null;
  }

  /**
   * Applies `patch` over the stored settings (or over `defaults` when the workspace has none) in
   * one statement: two admins saving different fields at once both keep their change.
   */
  async apply(workspaceId: string, defaults: SendSettings, patch: Partial<SendSettings>): Promise<SendSettings> {
    const keys = COLUMNS.map(([key]) => key);
    const rows = await this.sql.query<SendSettings>(
      `INSERT INTO send_settings (workspace_id, ${COLUMNS.map(([, column]) => column).join(', ')}, updated_at)
       VALUES ($1, ${COLUMNS.map(([, , type], i) => `COALESCE($${i + 2}::${type}, $${i + 2 + keys.length}::${type})`).join(', ')}, now())
       ON CONFLICT (workspace_id) DO UPDATE SET
         ${COLUMNS.map(([, column, type], i) => `${column} = COALESCE($${i + 2}::${type}, send_settings.${column})`).join(', ')}, updated_at = now()
       RETURNING ${SELECTED}`,
      [workspaceId, ...keys.map((key) => patch[key] ?? null), ...keys.map((key) => defaults[key])],
    );
    return rows[0]!;
  }
}

const COLUMNS: [keyof SendSettings, string, 'integer' | 'text'][] = [
  ['minGapMs', 'min_gap_ms', 'integer'],
  ['jitterMs', 'jitter_ms', 'integer'],
  ['perMinute', 'per_minute', 'integer'],
  ['burst', 'burst', 'integer'],
  ['typing', 'typing', 'text'],
  ['firstContactsPerDay', 'first_contacts_per_day', 'integer'],
  ['unansweredPerChat', 'unanswered_per_chat', 'integer'],
];

const SELECTED = COLUMNS.map(([key, column]) => `${column} AS "${key}"`).join(', ');
