import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ConversationEntity } from '../../inbox/entities/conversation.entity.js';
import type { MessageEntity } from '../../inbox/entities/message.entity.js';
import { conversationColumns, messageColumns, unprefix } from '../../inbox/inbox-columns.js';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

/**
 * Written inside the ingest transaction (a named, prepared statement: it runs once per new inbound
 * message), and only when the workspace has an enabled automation the message can trigger. The
 * conversation was created by this message when it was created in this transaction: its
 * `created_at` is the transaction's `now()` (to the microsecond).
 */
const RECORD = `
INSERT INTO automation_triggers (message_id, workspace_id, conversation_created)
SELECT $2, $1, c.created_at = now()
  FROM conversations c
 WHERE c.workspace_id = $1 AND c.id = $3
   AND EXISTS (SELECT 1 FROM automations a WHERE a.workspace_id = $1 AND a.enabled
                 AND (a.trigger = 'message.inbound' OR (a.trigger = 'conversation.created' AND c.created_at = now())))
ON CONFLICT (message_id) DO NOTHING
RETURNING message_id`;

/**
 * RECORD for the messages of a group commit, in one statement. Every conversation the group
 * created has the transaction's `now()` as its `created_at`, so `first` (the group's first message
 * of each conversation) says which message created it.
 */
const RECORD_MANY = `
INSERT INTO automation_triggers (message_id, workspace_id, conversation_created)
SELECT u.message_id, u.workspace_id, c.created_at = now() AND u.first
  FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::boolean[]) WITH ORDINALITY AS u(workspace_id, message_id, conversation_id, first, ord)
  JOIN conversations c ON c.workspace_id = u.workspace_id AND c.id = u.conversation_id
 WHERE EXISTS (SELECT 1 FROM automations a WHERE a.workspace_id = u.workspace_id AND a.enabled
                 AND (a.trigger = 'message.inbound' OR (a.trigger = 'conversation.created' AND c.created_at = now() AND u.first)))
 ORDER BY u.ord
ON CONFLICT (message_id) DO NOTHING
RETURNING message_id AS "messageId"`;

/** A trigger still to run, with its message and conversation as they are now. */
export interface PendingTrigger {
  conversationCreated: boolean;
  claimed: string[];
  message: MessageEntity;
  conversation: ConversationEntity;
}

export interface TriggerRef {
  workspaceId: string;
  messageId: string;
}

@Injectable()
export class AutomationTriggerRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** In the ingest transaction: true when a trigger row was written (something may run). */
  async record(workspaceId: string, messageId: string, conversationId: string, tx: SqlExecutor): Promise<boolean> {
    const rows = await tx.query(RECORD, [workspaceId, messageId, conversationId], 'content_automation_trigger');
    return rows.length > 0;
  }

  /** `record` for a group commit's messages (in group order): the message ids that got a trigger row. */
  async recordMany(entries: readonly { workspaceId: string; messageId: string; conversationId: string }[], tx: SqlExecutor): Promise<Set<string>> {
    const seen = new Set<string>();
    const first = entries.map(({ conversationId }) => {
      if (seen.has(conversationId)) return false;
      seen.add(conversationId);
      return true;
    });
    const rows = await tx.query<{ messageId: string }>(
      RECORD_MANY,
      [entries.map((e) => e.workspaceId), entries.map((e) => e.messageId), entries.map((e) => e.conversationId), first],
      'content_automation_trigger_many',
    );
    return new Set(rows.map((row) => row.messageId));
  }

  /** The trigger of this message if it has not run yet; null when done or gone. */
  async pending(workspaceId: string, messageId: string): Promise<PendingTrigger | null> {
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT t.conversation_created AS "conversationCreated", t.claimed, ${messageColumns('m', 'm_')}, ${conversationColumns('c', 'c_')}
         FROM automation_triggers t
         JOIN messages m ON m.id = t.message_id
         JOIN conversations c ON c.id = m.conversation_id
        WHERE t.workspace_id = $1 AND t.message_id = $2 AND t.done_at IS NULL`,
      [workspaceId, messageId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      conversationCreated: row.conversationCreated as boolean,
      claimed: row.claimed as string[],
      message: unprefix<MessageEntity>(row, 'm_'),
      conversation: unprefix<ConversationEntity>(row, 'c_'),
    };
  }

  /**
   * Claims an automation's turn on this message before its actions run; false when it had it
   * already (a retried job), so no automation ever acts twice on one message.
   */
  async claim(workspaceId: string, messageId: string, automationId: string): Promise<boolean> {
    const result = await this.sql.query<unknown>(
      `UPDATE automation_triggers SET claimed = array_append(claimed, $3::uuid)
        WHERE workspace_id = $1 AND message_id = $2 AND done_at IS NULL AND NOT ($3::uuid = ANY(claimed))
       RETURNING message_id`,
      [workspaceId, messageId, automationId],
    );
    return result.length > 0;
  }

  async done(workspaceId: string, messageId: string): Promise<void> {
    await this.sql.query(`UPDATE automation_triggers SET done_at = now() WHERE workspace_id = $1 AND message_id = $2 AND done_at IS NULL`, [
      workspaceId,
      messageId,
    ]);
  }

  /**
   * Maintenance across workspaces (the sweeper, not a request): triggers still pending after
   * `afterMs` but younger than `maxAgeMs`, oldest first. Their job was lost (a crash between the
   * commit and the enqueue, or Redis away) or is late.
   */
  async stalledAcrossWorkspaces(afterMs: number, maxAgeMs: number, limit: number): Promise<TriggerRef[]> {
    return this.sql.query(
      `SELECT workspace_id AS "workspaceId", message_id AS "messageId" FROM automation_triggers
        WHERE done_at IS NULL AND created_at < now() - $1 * interval '1 millisecond' AND created_at >= now() - $2 * interval '1 millisecond'
        ORDER BY created_at LIMIT $3`,
      [afterMs, maxAgeMs, limit],
    );
  }

  /**
   * Maintenance across workspaces: gives up on triggers older than `maxAgeMs` (a reply that late
   * would confuse more than help) and forgets done ones older than `keepMs`. Answers how many
   * were given up.
   */
  async expireAcrossWorkspaces(maxAgeMs: number, keepMs: number): Promise<number> {
    const expired = await this.sql.query<unknown>(
      `UPDATE automation_triggers SET done_at = now() WHERE done_at IS NULL AND created_at < now() - $1 * interval '1 millisecond' RETURNING message_id`,
      [maxAgeMs],
    );
    await this.sql.query(`DELETE FROM automation_triggers WHERE done_at < now() - $1 * interval '1 millisecond'`, [keepMs]);
    return expired.length;
  }
}
