import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { ConversationEntity, ConversationStatus } from '../entities/conversation.entity.js';
import { conversationColumns } from '../inbox-columns.js';

export interface ConversationFilter {
  status?: ConversationStatus;
  /** `null`: unassigned only; a user id: assigned to that user. */
  assigneeId?: string | null;
}

// Agents see unassigned conversations and their own: `$viewer` is the agent's user id, or null
// for actors who see everything. Every query below carries it, so a hidden conversation is a
// missing one for reads and writes alike.
const VISIBLE = (viewer: string): string => `(${viewer}::uuid IS NULL OR c.assignee_id IS NULL OR c.assignee_id = ${viewer}::uuid)`;

const COLUMNS = conversationColumns('c');

/** A conversation as an update left it, with the assignee and status it had before. */
export interface ConversationUpdate {
  conversation: ConversationEntity;
  previousAssigneeId: string | null;
  previousStatus: ConversationStatus;
}

@Injectable()
export class ConversationRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * The most recent conversations by last message, ties (the same second) in the order their last
   * messages arrived. The index holds the hour of the last message (workspace_id,
   * last_message_hour DESC: see ConversationEntity.lastMessageHour), so Postgres reads the latest
   * hours first and sorts within them (incremental sort); the order is the same.
   */
  list(workspaceId: string, viewer: string | null, filter: ConversationFilter, limit: number): Promise<ConversationEntity[]> {
    const params: unknown[] = [workspaceId, viewer, limit];
    const where = ['c.workspace_id = $1', VISIBLE('$2')];
    if (filter.status) {
      params.push(filter.status);
      where.push(`c.status = $${params.length}`);
    }
    if (filter.assigneeId === null) where.push('c.assignee_id IS NULL');
    else if (filter.assigneeId !== undefined) {
      params.push(filter.assigneeId);
      where.push(`c.assignee_id = $${params.length}::uuid`);
    }
    return this.sql.query(
      `SELECT ${COLUMNS} FROM conversations c WHERE ${where.join(' AND ')}
        ORDER BY c.last_message_hour DESC, c.last_message_at DESC, c.last_message_seq DESC, c.id DESC LIMIT $3`,
      params,
    );
  }

  async find(workspaceId: string, viewer: string | null, id: string): Promise<ConversationEntity | null> {
    const rows = await this.sql.query<ConversationEntity>(
      `SELECT ${COLUMNS} FROM conversations c WHERE c.workspace_id = $1 AND c.id = $3 AND ${VISIBLE('$2')}`,
      [workspaceId, viewer, id],
    );
    return rows[0] ?? null;
  }

  async findByChat(workspaceId: string, channel: ChannelName, chatJid: string): Promise<ConversationEntity | null> {
    const rows = await this.sql.query<ConversationEntity>(
      `SELECT ${COLUMNS} FROM conversations c WHERE c.workspace_id = $1 AND c.channel = $2 AND c.chat_jid = $3`,
      [workspaceId, channel, chatJid],
    );
    return rows[0] ?? null;
  }

  /** Sets unread to 0; returns the conversation and how many were unread before, or null. */
  async markRead(workspaceId: string, viewer: string | null, id: string): Promise<{ conversation: ConversationEntity; previousUnread: number } | null> {
    type Row = ConversationEntity & { previousUnread: number };
    const result = await this.sql.query<Row>(
      `WITH before AS (
         SELECT c.id, c.unread_count FROM conversations c
          WHERE c.workspace_id = $1 AND c.id = $3 AND ${VISIBLE('$2')} FOR UPDATE
       )
       UPDATE conversations c SET unread_count = 0,
              updated_at = CASE WHEN before.unread_count > 0 THEN now() ELSE c.updated_at END
         FROM before WHERE c.id = before.id
       RETURNING ${COLUMNS}, before.unread_count AS "previousUnread"`,
      [workspaceId, viewer, id],
    );
    const row = result[0];
    if (!row) return null;
    const { previousUnread, ...conversation } = row;
    return { conversation: conversation as ConversationEntity, previousUnread: Number(previousUnread) };
  }

  /**
   * Applies the changes and returns the row with the assignee and status it had before, so a
   * re-assignment can also reach the agent who loses the conversation (live events are filtered
   * by assignee). On `tx` when the change's hooks write beside it (InboxChangeHooks), else alone.
   */
  async update(
    workspaceId: string,
    viewer: string | null,
    id: string,
    changes: { assigneeId?: string | null; status?: ConversationStatus },
    tx: SqlExecutor = this.sql,
  ): Promise<ConversationUpdate | null> {
    const params: unknown[] = [workspaceId, viewer, id];
    const sets: string[] = ['updated_at = now()'];
    if (changes.assigneeId !== undefined) {
      params.push(changes.assigneeId);
      sets.push(`assignee_id = $${params.length}::uuid`);
    }
    if (changes.status !== undefined) {
      params.push(changes.status);
      sets.push(`status = $${params.length}`);
    }
    type Row = ConversationEntity & { previousAssigneeId: string | null; previousStatus: ConversationStatus };
    const result = await tx.query<Row>(
      `WITH before AS (
         SELECT c.id, c.assignee_id, c.status FROM conversations c
          WHERE c.workspace_id = $1 AND c.id = $3 AND ${VISIBLE('$2')} FOR UPDATE
       )
       UPDATE conversations c SET ${sets.join(', ')}
         FROM before WHERE c.id = before.id
       RETURNING ${COLUMNS}, before.assignee_id AS "previousAssigneeId", before.status AS "previousStatus"`,
      params,
    );
    const row = result[0];
    if (!row) return null;
    const { previousAssigneeId, previousStatus, ...conversation } = row;
    return { conversation: conversation as ConversationEntity, previousAssigneeId, previousStatus };
  }

  /**
   * Unassigns every conversation of the workspace assigned to `userId`, on the caller's
   * transaction (a member removal); returns them as they are now.
   */
  unassignUser(workspaceId: string, userId: string, tx: SqlExecutor): Promise<ConversationEntity[]> {
    return tx.query<ConversationEntity>(
      `UPDATE conversations c SET assignee_id = NULL, updated_at = now()
        WHERE c.workspace_id = $1 AND c.assignee_id = $2
       RETURNING ${COLUMNS}`,
      [workspaceId, userId],
    );
  }

  /** A group conversation takes the group's new subject; null when there is none or the name is unchanged. */
  async renameGroup(workspaceId: string, channel: ChannelName, chatJid: string, name: string): Promise<ConversationEntity | null> {
    const rows = await this.sql.query<ConversationEntity>(
      `UPDATE conversations c SET chat_name = $4, updated_at = now()
        WHERE c.workspace_id = $1 AND c.channel = $2 AND c.chat_jid = $3 AND c.is_group AND c.chat_name <> $4
       RETURNING ${COLUMNS}`,
      [workspaceId, channel, chatJid, name],
    );
    return rows[0] ?? null;
  }
}
