import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ContactEntity } from '../entities/contact.entity.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import { contactColumns, conversationColumns } from '../inbox-columns.js';
import { inTypeormTransaction, type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

const COLUMNS = contactColumns('c');
const CONVERSATION_COLUMNS = conversationColumns('c');

/** `conflict`: another contact of the workspace has that phone number. */
export type ContactWrite = ContactEntity | 'conflict' | null;

const isUniqueViolation = (error: unknown): boolean => (error as { code?: string } | null)?.code === '23505';

@Injectable()
export class ContactRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** Newest first; `q` matches the name (case-insensitive) or, by its digits, the phone number. */
  list(workspaceId: string, q: string | null, limit: number): Promise<ContactEntity[]> {
    if (!q) {
      return this.sql.query(`SELECT ${COLUMNS} FROM contacts c WHERE c.workspace_id = $1 ORDER BY c.created_at DESC, c.id DESC LIMIT $2`, [workspaceId, limit]);
    }
    const like = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const digits = q.replace(/\D/g, '');
    return this.sql.query(
      `SELECT ${COLUMNS} FROM contacts c
        WHERE c.workspace_id = $1 AND (c.name ILIKE $3 OR ($4 <> '' AND c.phone LIKE '%' || $4 || '%'))
        ORDER BY c.created_at DESC, c.id DESC LIMIT $2`,
      [workspaceId, limit, like, digits],
    );
  }

  async find(workspaceId: string, id: string): Promise<ContactEntity | null> {
    const rows = await this.sql.query<ContactEntity>(`SELECT ${COLUMNS} FROM contacts c WHERE c.workspace_id = $1 AND c.id = $2`, [workspaceId, id]);
    return rows[0] ?? null;
  }

  async insert(workspaceId: string, phone: string, name: string): Promise<ContactEntity | 'conflict'> {
    const rows = await this.sql.query<ContactEntity>(
      `INSERT INTO contacts AS c (workspace_id, phone, name) VALUES ($1, $2, $3)
       ON CONFLICT (workspace_id, phone) WHERE phone IS NOT NULL DO NOTHING
       RETURNING ${COLUMNS}`,
      [workspaceId, phone, name],
    );
    return rows[0] ?? 'conflict';
  }

  async update(workspaceId: string, id: string, changes: { phone?: string; name?: string }): Promise<ContactWrite> {
    try {
      const result = await this.sql.query<ContactEntity>(
        `UPDATE contacts c SET phone = COALESCE($3, c.phone), name = COALESCE($4, c.name), updated_at = now()
          WHERE c.workspace_id = $1 AND c.id = $2
         RETURNING ${COLUMNS}`,
        [workspaceId, id, changes.phone ?? null, changes.name ?? null],
      );
      return result[0] ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return 'conflict';
      throw error;
    }
  }

  /**
   * Deletes the contact and answers the conversations whose link it cleared (they keep their
   * history), so each can be announced; null when the workspace has no such contact. The contact
   * is locked first: an ingest linking a new conversation to it meanwhile waits, then fails the
   * foreign key and retries without the contact, so no conversation is unlinked unannounced.
   */
  async delete(workspaceId: string, id: string): Promise<ConversationEntity[] | null> {
    return inTypeormTransaction(this.db, async (tx) => {
      const found = await tx.query<unknown>(`SELECT 1 FROM contacts WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [workspaceId, id]);
      if (found.length === 0) return null;
      const unlinked = await tx.query<ConversationEntity>(
        `UPDATE conversations c SET contact_id = NULL, updated_at = now()
          WHERE c.workspace_id = $1 AND c.contact_id = $2
         RETURNING ${CONVERSATION_COLUMNS}`,
        [workspaceId, id],
      );
      await tx.query(`DELETE FROM contacts WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
      return unlinked;
    });
  }
}
