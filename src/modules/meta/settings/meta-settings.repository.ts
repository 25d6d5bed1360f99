import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { MetaSettingsEntity } from './entities/meta-settings.entity.js';

export interface MetaSettingsWrite {
  phoneNumberId: string;
  wabaId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  /** Sealed token. */
  accessToken: string;
  /** Sealed PIN; undefined keeps the stored one. */
  registrationPin?: string | null;
}

/** A number of a WABA: whose it is, and its display number's digits (`+1 555-0100` → `15550100`). */
export interface WabaNumber {
  workspaceId: string;
  displayDigits: string;
}

const COLUMNS = `workspace_id AS "workspaceId", phone_number_id AS "phoneNumberId", waba_id AS "wabaId",
  display_phone_number AS "displayPhoneNumber", verified_name AS "verifiedName", access_token AS "accessToken",
  registration_pin AS "registrationPin", connected, last_error AS "lastError", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** SQL of `meta_settings`, one row per workspace. */
@Injectable()
export class MetaSettingsRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  async find(workspaceId: string): Promise<MetaSettingsEntity | null> {
    const rows = await this.sql.query<MetaSettingsEntity>(`SELECT ${COLUMNS} FROM meta_settings WHERE workspace_id = $1`, [workspaceId]);
    return rows[0] ?? null;
  }

  /** Whether another workspace has this number. */
  async numberTakenElsewhere(workspaceId: string, phoneNumberId: string): Promise<boolean> {
    const rows = await this.sql.query<unknown>(`SELECT 1 FROM meta_settings WHERE phone_number_id = $2 AND workspace_id <> $1`, [workspaceId, phoneNumberId]);
    return rows.length > 0;
  }

  /**
   * Inserts or replaces the workspace's settings (connected again); 'conflict' when another
   * workspace took the number meanwhile. `wasConnected`: whether settings were there and
   * connected before (null: there were none).
   */
  async save(
    workspaceId: string,
    settings: MetaSettingsWrite,
    q: SqlExecutor = this.sql,
  ): Promise<(MetaSettingsEntity & { wasConnected: boolean | null }) | 'conflict'> {
    try {
      const rows = await q.query<MetaSettingsEntity & { wasConnected: boolean | null }>(
        `WITH old AS (SELECT connected FROM meta_settings WHERE workspace_id = $1)
         INSERT INTO meta_settings AS s (workspace_id, phone_number_id, waba_id, display_phone_number, verified_name, access_token, registration_pin)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (workspace_id) DO UPDATE SET
           phone_number_id = EXCLUDED.phone_number_id, waba_id = EXCLUDED.waba_id,
           display_phone_number = EXCLUDED.display_phone_number, verified_name = EXCLUDED.verified_name,
           access_token = EXCLUDED.access_token,
           registration_pin = CASE WHEN $8::boolean THEN EXCLUDED.registration_pin ELSE s.registration_pin END,
           connected = true, last_error = NULL, updated_at = now()
         RETURNING ${COLUMNS}, (SELECT connected FROM old) AS "wasConnected"`,
        [
          workspaceId,
          settings.phoneNumberId,
          settings.wabaId,
          settings.displayPhoneNumber,
          settings.verifiedName,
          settings.accessToken,
          settings.registrationPin ?? null,
          settings.registrationPin !== undefined,
        ],
      );
      return rows[0]!;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return 'conflict';
      throw error;
    }
  }

  /** The deleted settings' number and whether it was connected; null when there were none. */
  async delete(workspaceId: string, q: SqlExecutor = this.sql): Promise<{ phoneNumberId: string; connected: boolean } | null> {
    const rows = await q.query<{ phoneNumberId: string; connected: boolean }>(
      `DELETE FROM meta_settings WHERE workspace_id = $1 RETURNING phone_number_id AS "phoneNumberId", connected`,
      [workspaceId],
    );
    return rows[0] ?? null;
  }

  /**
   * The provider refused the token: sends stop (409) until the settings are saved again. Answers
   * the row when this call disconnected it (it was connected), null otherwise. In the caller's
   * transaction: the row is locked first, so of several refusals at once one finds it connected.
   */
  async markDisconnected(workspaceId: string, reason: string, tx: SqlExecutor): Promise<{ phoneNumberId: string; updatedAt: Date } | null> {
    const before = await tx.query<{ connected: boolean }>(`SELECT connected FROM meta_settings WHERE workspace_id = $1 FOR UPDATE`, [workspaceId]);
    const rows = await tx.query<{ phoneNumberId: string; updatedAt: Date }>(
      `UPDATE meta_settings SET connected = false, last_error = $2, updated_at = now() WHERE workspace_id = $1
       RETURNING phone_number_id AS "phoneNumberId", updated_at AS "updatedAt"`,
      [workspaceId, reason],
    );
    return before[0]?.connected && rows[0] ? rows[0] : null;
  }

  // Routing of provider callbacks, which name numbers and WABAs, not workspaces: the only
  // lookups of this table that do not start from a workspace.

  /** The workspace of each known number among `phoneNumberIds`. */
  async workspacesByNumber(phoneNumberIds: string[]): Promise<Map<string, string>> {
    if (phoneNumberIds.length === 0) return new Map();
    const rows = await this.sql.query<{ workspaceId: string; phoneNumberId: string }>(
      `SELECT workspace_id AS "workspaceId", phone_number_id AS "phoneNumberId" FROM meta_settings WHERE phone_number_id = ANY($1::text[])`,
      [phoneNumberIds],
    );
    return new Map(rows.map((row) => [row.phoneNumberId, row.workspaceId]));
  }

  /**
   * The numbers of each known WABA among `wabaIds`, as workspace and the digits of its display
   * number (a WABA's numbers may serve several workspaces).
   */
  async numbersByWaba(wabaIds: string[]): Promise<Map<string, WabaNumber[]>> {
    if (wabaIds.length === 0) return new Map();
    const rows: (WabaNumber & { wabaId: string })[] = await this.sql.query(
      `SELECT workspace_id AS "workspaceId", waba_id AS "wabaId", regexp_replace(display_phone_number, '\\D', '', 'g') AS "displayDigits"
         FROM meta_settings WHERE waba_id = ANY($1::text[]) ORDER BY workspace_id`,
      [wabaIds],
    );
    const byWaba = new Map<string, WabaNumber[]>();
    for (const { wabaId, ...number } of rows) byWaba.set(wabaId, [...(byWaba.get(wabaId) ?? []), number]);
    return byWaba;
  }
}
