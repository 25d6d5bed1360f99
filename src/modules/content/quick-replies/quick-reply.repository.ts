import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { QuickReplyEntity } from './entities/quick-reply.entity.js';
import { visibleTo } from '../../inbox/conversations/conversation-viewer.js';

const COLUMNS = `q.id, q.workspace_id AS "workspaceId", q.shortcut, q.body, q.created_at AS "createdAt", q.updated_at AS "updatedAt"`;

export type QuickReplyRow = Omit<QuickReplyEntity, 'workspace'>;
/** `conflict`: the shortcut is taken; `full`: the workspace has the most quick replies it may. */
export type QuickReplyWrite = QuickReplyRow | 'conflict' | 'full';

/** What the placeholders are filled in from (null: not known). */
export interface RenderContext {
  contactName: string | null;
  contactPhone: string | null;
  chatName: string;
  chatPhone: string;
  isGroup: boolean;
  agentName: string | null;
}

const isUniqueViolation = (error: unknown): boolean => (error as { code?: string } | null)?.code === '23505';

@Injectable()
export class QuickReplyRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** By shortcut (the unique index's order). */
  list(workspaceId: string, limit: number): Promise<QuickReplyRow[]> {
    return this.sql.query(`SELECT ${COLUMNS} FROM quick_replies q WHERE q.workspace_id = $1 ORDER BY q.shortcut LIMIT $2`, [workspaceId, limit]);
  }

  async find(workspaceId: string, id: string): Promise<QuickReplyRow | null> {
    const rows = await this.sql.query<QuickReplyRow>(`SELECT ${COLUMNS} FROM quick_replies q WHERE q.workspace_id = $1 AND q.id = $2`, [workspaceId, id]);
    return rows[0] ?? null;
  }

  async insert(workspaceId: string, shortcut: string, body: string, max: number): Promise<QuickReplyWrite> {
    try {
      const rows = await this.sql.query<QuickReplyRow>(
        `INSERT INTO quick_replies AS q (workspace_id, shortcut, body)
         SELECT $1, $2, $3 WHERE (SELECT count(*) FROM quick_replies WHERE workspace_id = $1) < $4
         RETURNING ${COLUMNS}`,
        [workspaceId, shortcut, body, max],
      );
      return rows[0] ?? 'full';
    } catch (error) {
      if (isUniqueViolation(error)) return 'conflict';
      throw error;
    }
  }

  async update(workspaceId: string, id: string, changes: { shortcut?: string; body?: string }): Promise<QuickReplyRow | 'conflict' | null> {
    try {
      const rows = await this.sql.query<QuickReplyRow>(
        `UPDATE quick_replies q SET shortcut = COALESCE($3, q.shortcut), body = COALESCE($4, q.body), updated_at = now()
          WHERE q.workspace_id = $1 AND q.id = $2 RETURNING ${COLUMNS}`,
        [workspaceId, id, changes.shortcut ?? null, changes.body ?? null],
      );
      return rows[0] ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return 'conflict';
      throw error;
    }
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    return (await this.sql.execute(`DELETE FROM quick_replies WHERE workspace_id = $1 AND id = $2`, [workspaceId, id])) > 0;
  }

  /**
   * The conversation (if `viewer` sees it: agents see unassigned ones and their own), its contact
   * and the agent's name, in one round trip; null when the conversation is not there for them.
   */
  async renderContext(workspaceId: string, viewer: string | null, conversationId: string, agentId: string | null): Promise<RenderContext | null> {
    const rows = await this.sql.query<RenderContext>(
      `SELECT ct.name AS "contactName", ct.phone AS "contactPhone", c.chat_name AS "chatName", c.chat_phone AS "chatPhone", c.is_group AS "isGroup",
              (SELECT u.name FROM users u WHERE u.id = $4::uuid) AS "agentName"
         FROM conversations c LEFT JOIN contacts ct ON ct.id = c.contact_id
        WHERE c.workspace_id = $1 AND c.id = $3 AND ${visibleTo('$2')}`,
      [workspaceId, viewer, conversationId, agentId],
    );
    return rows[0] ?? null;
  }
}
