import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { ConversationEntity, ConversationStatus } from '../entities/conversation.entity.js';
import { conversationColumns } from '../inbox-columns.js';
import { visibleTo } from './conversation-viewer.js';

// Every query below carries the viewer rule (`$2`), so a hidden conversation is a missing one.
const VISIBLE = visibleTo;

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
    changes: { assigneeId?: string | null; status?: ConversationStatus; snoozedUntil?: Date | null },
    tx: SqlExecutor = this.sql,
  ): Promise<ConversationUpdate | null> {
    const params: unknown[] = [workspaceId, viewer, id];
    const sets: string[] = ['updated_at = now()'];
    if (changes.assigneeId !== undefined) {
      params.push(changes.assigneeId);
      sets.push(`assignee_id = $${params.length}::uuid`);
    }
    if (changes.status !== undefined) {
      // A status always says whether the conversation is snoozed: the wake-up time goes with it.
      params.push(changes.status, changes.status === 'snoozed' ? (changes.snoozedUntil ?? null) : null);
      sets.push(`status = $${params.length - 1}`, `snoozed_until = $${params.length}::timestamptz`);
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
   * Opens a snoozed conversation whose time has come (`now`, the injectable clock's), clearing
   * snoozed_until; null when it is no longer due (woken by a message, snoozed again, or locked by
   * another process's sweep: SKIP LOCKED, so two sweeps never wake it twice).
   */
  async wake(workspaceId: string, id: string, now: Date, tx: SqlExecutor = this.sql): Promise<ConversationUpdate | null> {
    type Row = ConversationEntity & { previousAssigneeId: string | null; previousStatus: ConversationStatus };
    const result = await tx.query<Row>(
      `WITH before AS (
         SELECT c.id, c.assignee_id, c.status FROM conversations c
          WHERE c.workspace_id = $1 AND c.id = $2 AND c.status = 'snoozed' AND c.snoozed_until <= $3
          FOR UPDATE SKIP LOCKED
       )
       UPDATE conversations c SET status = 'open', snoozed_until = NULL, updated_at = now()
         FROM before WHERE c.id = before.id
       RETURNING ${COLUMNS}, before.assignee_id AS "previousAssigneeId", before.status AS "previousStatus"`,
      [workspaceId, id, now],
    );
    const row = result[0];
    if (!row) return null;
    const { previousAssigneeId, previousStatus, ...conversation } = row;
    return { conversation: conversation as ConversationEntity, previousAssigneeId, previousStatus };
  }

  /**
   * In a send's transaction: the conversation's current opening takes its first response `at`
   * when it has an inbound message before it and none yet (not closed: a closed conversation has
   * no opening to answer); null when it does not. The conditions are in the UPDATE, so of two
   * concurrent sends one wins. The columns are in no index: the update stays HOT (reports,
   * docs/inbox.md "Reports").
   */
  async takeFirstResponse(
    workspaceId: string,
    conversationId: string,
    at: Date,
    tx: SqlExecutor,
  ): Promise<{ firstInboundAt: Date; assigneeId: string | null } | null> {
    const rows = await tx.query<{ firstInboundAt: Date; assigneeId: string | null }>(
      `UPDATE conversations SET first_response_at = $3
        WHERE workspace_id = $1 AND id = $2 AND status <> 'closed'
          AND first_inbound_at IS NOT NULL AND first_inbound_at <= $3 AND first_response_at IS NULL
       RETURNING first_inbound_at AS "firstInboundAt", assignee_id AS "assigneeId"`,
      [workspaceId, conversationId, at],
    );
    return rows[0] ?? null;
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
