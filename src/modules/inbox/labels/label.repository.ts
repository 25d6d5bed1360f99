import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTypeormTransaction, type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { ContactEntity } from '../entities/contact.entity.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import { contactColumns, conversationColumns } from '../inbox-columns.js';
import type { LabelEntity } from './entities/label.entity.js';
import { visibleTo } from '../conversations/conversation-viewer.js';

const COLUMNS = `l.id, l.workspace_id AS "workspaceId", l.name, l.color, l.created_at AS "createdAt", l.updated_at AS "updatedAt"`;

/** `conflict`: the name is taken (case-insensitively); `full`: the workspace has the most labels it may. */
export type LabelWrite = LabelEntity | 'conflict' | 'full';

/** What applying a label found: the row after the change, or which of the two is missing. */
export type Labelled<T> = T | 'no label' | 'no row';

/** A conversation as a label change left it, with the labels it had before. */
export interface ConversationLabels {
  conversation: ConversationEntity;
  previousLabelIds: string[];
}

interface Previous {
  previousLabelIds: string[];
}

interface Found {
  labelFound: boolean;
  rowFound: boolean;
}

const isUniqueViolation = (error: unknown): boolean => (error as { code?: string } | null)?.code === '23505';

// Agents see unassigned conversations and their own ($4: the agent, or null for everyone).
const VISIBLE = visibleTo('$4');

/**
 * Adds label $3 to row $2 of `table` in workspace $1 where `visible` holds, and says which of the
 * two was missing. The label row is locked FOR KEY SHARE meanwhile: a concurrent delete of the
 * label waits for the addition to commit and then strips the id again, instead of leaving the id
 * of a deleted label behind (label_ids is an array: no foreign key does this for us).
 */
const addLabelSql = (table: 'conversations' | 'contacts', columns: string, visible: string): string => `
  WITH label AS (SELECT id FROM labels WHERE workspace_id = $1 AND id = $3 FOR KEY SHARE),
  before AS (SELECT c.id, c.label_ids FROM ${table} c WHERE c.workspace_id = $1 AND c.id = $2 AND ${visible} FOR UPDATE),
  changed AS (
    UPDATE ${table} c SET label_ids = CASE WHEN $3::uuid = ANY (c.label_ids) THEN c.label_ids ELSE array_append(c.label_ids, $3::uuid) END,
           updated_at = now()
      FROM before b WHERE c.id = b.id AND EXISTS (SELECT 1 FROM label)
    RETURNING ${columns}, b.label_ids AS "previousLabelIds")
  SELECT changed.*, EXISTS (SELECT 1 FROM label) AS "labelFound", EXISTS (SELECT 1 FROM before) AS "rowFound"
    FROM (SELECT 1) one LEFT JOIN changed ON true`;

/** Takes label $3 off row $2 of `table` in workspace $1 where `visible` holds (updated_at moves only when it had it). */
const removeLabelSql = (table: 'conversations' | 'contacts', columns: string, visible: string): string => `
  WITH before AS (SELECT c.id, c.label_ids FROM ${table} c WHERE c.workspace_id = $1 AND c.id = $2 AND ${visible} FOR UPDATE)
  UPDATE ${table} c SET label_ids = array_remove(c.label_ids, $3::uuid),
         updated_at = CASE WHEN $3::uuid = ANY (c.label_ids) THEN now() ELSE c.updated_at END
    FROM before b WHERE c.id = b.id RETURNING ${columns}, b.label_ids AS "previousLabelIds"`;

const LABEL_CONVERSATION = addLabelSql('conversations', conversationColumns('c'), VISIBLE);
const UNLABEL_CONVERSATION = removeLabelSql('conversations', conversationColumns('c'), VISIBLE);
// Every member sees every contact.
const LABEL_CONTACT = addLabelSql('contacts', contactColumns('c'), 'true');
const UNLABEL_CONTACT = removeLabelSql('contacts', contactColumns('c'), 'true');

@Injectable()
export class LabelRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  list(workspaceId: string, limit: number): Promise<LabelEntity[]> {
    return this.sql.query(`SELECT ${COLUMNS} FROM labels l WHERE l.workspace_id = $1 ORDER BY lower(l.name), l.id LIMIT $2`, [workspaceId, limit]);
  }

  async find(workspaceId: string, id: string): Promise<LabelEntity | null> {
    const rows = await this.sql.query<LabelEntity>(`SELECT ${COLUMNS} FROM labels l WHERE l.workspace_id = $1 AND l.id = $2`, [workspaceId, id]);
    return rows[0] ?? null;
  }

  /** Inserts unless the workspace already has `max` labels. */
  async insert(workspaceId: string, name: string, color: string, max: number): Promise<LabelWrite> {
    try {
      const rows = await this.sql.query<LabelEntity>(
        `INSERT INTO labels AS l (workspace_id, name, color)
         SELECT $1, $2, $3 WHERE (SELECT count(*) FROM labels WHERE workspace_id = $1) < $4
         RETURNING ${COLUMNS}`,
        [workspaceId, name, color, max],
      );
      return rows[0] ?? 'full';
    } catch (error) {
      if (isUniqueViolation(error)) return 'conflict';
      throw error;
    }
  }

  async update(workspaceId: string, id: string, changes: { name?: string; color?: string }): Promise<LabelEntity | 'conflict' | null> {
    try {
      const rows = await this.sql.query<LabelEntity>(
        `UPDATE labels l SET name = COALESCE($3, l.name), color = COALESCE($4, l.color), updated_at = now()
          WHERE l.workspace_id = $1 AND l.id = $2 RETURNING ${COLUMNS}`,
        [workspaceId, id, changes.name ?? null, changes.color ?? null],
      );
      return rows[0] ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return 'conflict';
      throw error;
    }
  }

  /**
   * Deletes the label and strips its id from every conversation and contact, in one transaction;
   * answers the conversations it changed (for their live events), or null when there was no label.
   */
  delete(workspaceId: string, id: string): Promise<ConversationEntity[] | null> {
    return inTypeormTransaction(this.db, async (tx) => {
      const deleted = await tx.execute(`DELETE FROM labels WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
      if (deleted === 0) return null;
      // The GIN index on conversations.label_ids finds the labelled rows.
      const conversations = await tx.query<ConversationEntity>(
        `UPDATE conversations c SET label_ids = array_remove(c.label_ids, $2::uuid), updated_at = now()
          WHERE c.workspace_id = $1 AND c.label_ids @> ARRAY[$2::uuid] RETURNING ${conversationColumns('c')}`,
        [workspaceId, id],
      );
      await tx.execute(
        `UPDATE contacts SET label_ids = array_remove(label_ids, $2::uuid), updated_at = now() WHERE workspace_id = $1 AND label_ids @> ARRAY[$2::uuid]`,
        [workspaceId, id],
      );
      return conversations;
    });
  }

  /** Adds the label to a conversation `viewer` sees (a no-op when it has it already). */
  /** On `tx` when the change's hooks write beside it (InboxChangeHooks, webhook `conversation.updated`). */
  async labelConversation(
    workspaceId: string,
    viewer: string | null,
    conversationId: string,
    labelId: string,
    tx: SqlExecutor = this.sql,
  ): Promise<Labelled<ConversationLabels>> {
    const rows = await tx.query<ConversationEntity & Previous & Found>(LABEL_CONVERSATION, [workspaceId, conversationId, labelId, viewer]);
    const found = this.outcome(rows[0]!);
    return typeof found === 'string' ? found : withPrevious(found);
  }

  /** Takes the label off a conversation `viewer` sees (a no-op when it does not have it); null: no such conversation. */
  async unlabelConversation(
    workspaceId: string,
    viewer: string | null,
    conversationId: string,
    labelId: string,
    tx: SqlExecutor = this.sql,
  ): Promise<ConversationLabels | null> {
    const rows = await tx.query<ConversationEntity & Previous>(UNLABEL_CONVERSATION, [workspaceId, conversationId, labelId, viewer]);
    return rows[0] ? withPrevious(rows[0]) : null;
  }

  async labelContact(workspaceId: string, contactId: string, labelId: string): Promise<Labelled<ContactEntity>> {
    const rows = await this.sql.query<ContactEntity & Previous & Found>(LABEL_CONTACT, [workspaceId, contactId, labelId]);
    const found = this.outcome(rows[0]!);
    return typeof found === 'string' ? found : withPrevious(found).conversation;
  }

  async unlabelContact(workspaceId: string, contactId: string, labelId: string): Promise<ContactEntity | null> {
    const rows = await this.sql.query<ContactEntity & Previous>(UNLABEL_CONTACT, [workspaceId, contactId, labelId]);
    return rows[0] ? withPrevious(rows[0]).conversation : null;
  }

  // The path's row is checked first: a hidden or unknown conversation is 404 whatever the label.
  private outcome<T>(row: T & Found): Labelled<T> {
    if (!row.rowFound) return 'no row';
    if (!row.labelFound) return 'no label';
    const { labelFound: _label, rowFound: _row, ...rest } = row;
    return rest as unknown as T;
  }
}

// The row as the change left it, apart from the labels it had before.
function withPrevious<T>(row: T & Previous): { conversation: T; previousLabelIds: string[] } {
  const { previousLabelIds, ...rest } = row;
  return { conversation: rest as unknown as T, previousLabelIds };
}
