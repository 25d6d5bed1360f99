import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { ConversationNoteEntity } from './entities/conversation-note.entity.js';
import { visibleTo } from '../conversations/conversation-viewer.js';

/** A note with its author's name (null: no author) and, for the Mentions view, its chat's name. */
export type NoteRow = Omit<ConversationNoteEntity, 'workspace' | 'conversation' | 'author'> & { authorName: string | null; chatName?: string };

const COLUMNS = `n.id, n.workspace_id AS "workspaceId", n.conversation_id AS "conversationId", n.author_id AS "authorId",
  n.body, n.mentions, n.created_at AS "createdAt"`;

// Agents see unassigned conversations and their own ($2: the agent, or null for everyone); a
// note is seen exactly when its conversation is.
const VISIBLE = visibleTo('$2');

@Injectable()
export class NoteRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** The conversation's newest `limit` notes, oldest first (index: conversation_id, created_at). */
  list(workspaceId: string, conversationId: string, limit: number): Promise<NoteRow[]> {
    return this.sql.query(
      `SELECT * FROM (
         SELECT ${COLUMNS}, u.name AS "authorName" FROM conversation_notes n LEFT JOIN users u ON u.id = n.author_id
          WHERE n.workspace_id = $1 AND n.conversation_id = $2 ORDER BY n.created_at DESC, n.id DESC LIMIT $3
       ) newest ORDER BY "createdAt", id`,
      [workspaceId, conversationId, limit],
    );
  }

  /** How many of `userIds` are members of the workspace. */
  async countMembers(workspaceId: string, userIds: readonly string[]): Promise<number> {
    const rows = await this.sql.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM workspace_members WHERE workspace_id = $1 AND user_id = ANY ($2::uuid[])`,
      [workspaceId, userIds],
    );
    return rows[0]!.count;
  }

  /** Adds a note to a conversation `viewer` sees (answered with the conversation's assignee, the event's audience); null when it sees none with that id. */
  async insert(
    workspaceId: string,
    viewer: string | null,
    note: { conversationId: string; authorId: string | null; body: string; mentions: readonly string[] },
  ): Promise<(NoteRow & { assigneeId: string | null }) | null> {
    const rows = await this.sql.query<NoteRow & { assigneeId: string | null }>(
      `WITH n AS (
         INSERT INTO conversation_notes (workspace_id, conversation_id, author_id, body, mentions)
         SELECT c.workspace_id, c.id, $4::uuid, $5::text, $6::uuid[] FROM conversations c WHERE c.workspace_id = $1 AND c.id = $3 AND ${VISIBLE}
         RETURNING *)
       SELECT ${COLUMNS}, u.name AS "authorName", c.assignee_id AS "assigneeId"
         FROM n JOIN conversations c ON c.id = n.conversation_id LEFT JOIN users u ON u.id = n.author_id`,
      [workspaceId, viewer, note.conversationId, note.authorId, note.body, note.mentions],
    );
    return rows[0] ?? null;
  }

  async find(workspaceId: string, conversationId: string, noteId: string): Promise<NoteRow | null> {
    const rows = await this.sql.query<NoteRow>(
      `SELECT ${COLUMNS}, NULL AS "authorName" FROM conversation_notes n WHERE n.workspace_id = $1 AND n.conversation_id = $2 AND n.id = $3`,
      [workspaceId, conversationId, noteId],
    );
    return rows[0] ?? null;
  }

  async delete(workspaceId: string, conversationId: string, noteId: string): Promise<boolean> {
    const deleted = await this.sql.execute(`DELETE FROM conversation_notes WHERE workspace_id = $1 AND conversation_id = $2 AND id = $3`, [
      workspaceId,
      conversationId,
      noteId,
    ]);
    return deleted > 0;
  }

  /**
   * The newest notes mentioning `userId` in conversations `viewer` sees, newest first. The GIN
   * index on mentions finds them; the join drops those of conversations hidden from an agent.
   */
  mentioning(workspaceId: string, viewer: string | null, userId: string, limit: number): Promise<NoteRow[]> {
    return this.sql.query(
      `SELECT ${COLUMNS}, u.name AS "authorName", COALESCE(NULLIF(c.chat_name, ''), c.chat_phone) AS "chatName"
         FROM conversation_notes n JOIN conversations c ON c.id = n.conversation_id LEFT JOIN users u ON u.id = n.author_id
        WHERE n.workspace_id = $1 AND n.mentions @> ARRAY[$3::uuid] AND ${VISIBLE}
        ORDER BY n.created_at DESC, n.id DESC LIMIT $4`,
      [workspaceId, viewer, userId, limit],
    );
  }
}
