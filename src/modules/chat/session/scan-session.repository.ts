import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { ScanDesire } from './entities/scan-session.entity.js';
import type { RowState } from './session-state.js';

/** The durable session row as the session code reads it. */
export interface ScanSessionRow {
  desired: ScanDesire;
  linked: boolean;
  jid: string | null;
  qrExpired: boolean;
  lastError: string | null;
  failures: number;
  /** As far as the row knows (session-state.ts); its `stateSince` moves only when it changes. */
  state: RowState;
  stateSince: Date;
}

export type ScanSessionPatch = Partial<Omit<ScanSessionRow, 'stateSince'>>;

export const NO_SESSION_ROW: ScanSessionRow = {
  desired: 'stopped',
  linked: false,
  jid: null,
  qrExpired: false,
  lastError: null,
  failures: 0,
  state: 'stopped',
  stateSince: new Date(0),
};

// Field → column; the patch SQL is built only from these names, never from input.
const COLUMNS: Record<keyof ScanSessionPatch, string> = {
  desired: 'desired',
  linked: 'linked',
  jid: 'jid',
  qrExpired: 'qr_expired',
  lastError: 'last_error',
  failures: 'failures',
  state: 'state',
};

const RETURNED = `desired, linked, jid, qr_expired AS "qrExpired", last_error AS "lastError", failures, state, state_since AS "stateSince"`;
const SELECT = `SELECT ${RETURNED} FROM scan_sessions WHERE workspace_id = $1`;

@Injectable()
export class ScanSessionRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  async find(workspaceId: string): Promise<ScanSessionRow> {
    const rows = await this.sql.query<ScanSessionRow>(SELECT, [workspaceId]);
    if (rows[0]) return rows[0];
    // Never started: stopped since the workspace exists.
    const created = await this.sql.query<{ createdAt: Date }>(`SELECT created_at AS "createdAt" FROM workspaces WHERE id = $1`, [workspaceId]);
    return { ...NO_SESSION_ROW, stateSince: created[0]?.createdAt ?? NO_SESSION_ROW.stateSince };
  }

  /** Writes the given fields (creating the row when missing) and answers the whole row. */
  async update(workspaceId: string, patch: ScanSessionPatch): Promise<ScanSessionRow> {
    const fields = (Object.keys(patch) as (keyof ScanSessionPatch)[]).filter((field) => patch[field] !== undefined);
    const columns = fields.map((field) => COLUMNS[field]);
    const values = fields.map((field) => patch[field]);
    const placeholders = fields.map((_, i) => `$${i + 2}`);
    const sets = [...columns.map((column) => `${column} = EXCLUDED.${column}`), 'updated_at = now()'];
    // `state_since` says since when the state holds: rewriting the same state keeps it.
    if (patch.state !== undefined) {
      sets.push('state_since = CASE WHEN scan_sessions.state IS DISTINCT FROM EXCLUDED.state THEN now() ELSE scan_sessions.state_since END');
    }
    const rows = await this.sql.query<ScanSessionRow>(
      `INSERT INTO scan_sessions (workspace_id${columns.map((c) => `, ${c}`).join('')})
       VALUES ($1${placeholders.map((p) => `, ${p}`).join('')})
       ON CONFLICT (workspace_id) DO UPDATE SET ${sets.join(', ')}
       RETURNING ${RETURNED}`,
      [workspaceId, ...values],
    );
    return rows[0]!;
  }

  /** Adds one failed connection and answers the new count. */
  async addFailure(workspaceId: string): Promise<number> {
    const rows = await this.sql.query<{ failures: number }>(
      `INSERT INTO scan_sessions (workspace_id, failures) VALUES ($1, 1)
       ON CONFLICT (workspace_id) DO UPDATE SET failures = scan_sessions.failures + 1, updated_at = now()
       RETURNING failures`,
      [workspaceId],
    );
    return rows[0]!.failures;
  }

  /** Every session some worker should hold (wanted and linked): what placement gives a home. Cluster-wide. */
  async placeable(): Promise<string[]> {
    const rows = await this.sql.query<{ workspace_id: string }>(
      `SELECT workspace_id FROM scan_sessions WHERE desired = 'running' AND linked ORDER BY workspace_id`,
    );
    return rows.map((row) => row.workspace_id);
  }

  /** Wanted sessions and whether each is linked, for the cluster-wide session gauges (metrics). */
  async wanted(): Promise<{ workspaceId: string; linked: boolean }[]> {
    return this.sql.query(`SELECT workspace_id AS "workspaceId", linked FROM scan_sessions WHERE desired = 'running'`);
  }
}
