import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { AutomationRow } from './automation.mapper.js';
import type { Action, AutomationTrigger, Condition, MatchMode } from './automation-rules.js';

const COLUMNS = `a.id, a.workspace_id AS "workspaceId", a.name, a.enabled, a.trigger, a.match, a.conditions, a.actions,
  a.created_at AS "createdAt", a.updated_at AS "updatedAt"`;

export interface AutomationFields {
  name: string;
  enabled: boolean;
  trigger: AutomationTrigger;
  match: MatchMode;
  conditions: Condition[];
  actions: Action[];
}

@Injectable()
export class AutomationRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** Newest first (index: workspace_id, created_at). */
  list(workspaceId: string, limit: number): Promise<AutomationRow[]> {
    return this.sql.query(`SELECT ${COLUMNS} FROM automations a WHERE a.workspace_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT $2`, [
      workspaceId,
      limit,
    ]);
  }

  async insert(workspaceId: string, fields: AutomationFields): Promise<AutomationRow> {
    const rows = await this.sql.query<AutomationRow>(
      `INSERT INTO automations AS a (workspace_id, name, enabled, trigger, match, conditions, actions)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [workspaceId, fields.name, fields.enabled, fields.trigger, fields.match, JSON.stringify(fields.conditions), JSON.stringify(fields.actions)],
    );
    return rows[0]!;
  }

  /** Replaces the fields given; null when the automation is not in this workspace. */
  async update(workspaceId: string, id: string, changes: Partial<AutomationFields>): Promise<AutomationRow | null> {
    const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
    const result = await this.sql.query<AutomationRow>(
      `UPDATE automations a SET name = COALESCE($3, a.name), enabled = COALESCE($4, a.enabled), trigger = COALESCE($5, a.trigger),
              match = COALESCE($6, a.match), conditions = COALESCE($7::jsonb, a.conditions), actions = COALESCE($8::jsonb, a.actions),
              updated_at = now()
        WHERE a.workspace_id = $1 AND a.id = $2
       RETURNING ${COLUMNS}`,
      [
        workspaceId,
        id,
        changes.name ?? null,
        changes.enabled ?? null,
        changes.trigger ?? null,
        changes.match ?? null,
        json(changes.conditions),
        json(changes.actions),
      ],
    );
    return result[0] ?? null;
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.sql.query<unknown>(`DELETE FROM automations WHERE workspace_id = $1 AND id = $2 RETURNING id`, [workspaceId, id]);
    return result.length > 0;
  }

  /**
   * The enabled automations a new message triggers, in the order they run: `conversation.created`
   * ones first (when the message created its conversation), then `message.inbound` ones, each
   * oldest first.
   */
  triggered(workspaceId: string, conversationCreated: boolean): Promise<AutomationRow[]> {
    return this.sql.query(
      `SELECT ${COLUMNS} FROM automations a
        WHERE a.workspace_id = $1 AND a.enabled AND (a.trigger = 'message.inbound' OR ($2 AND a.trigger = 'conversation.created'))
        ORDER BY (a.trigger = 'conversation.created') DESC, a.created_at, a.id`,
      [workspaceId, conversationCreated],
    );
  }
}
