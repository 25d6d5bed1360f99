import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

/** A cap's use in the last 24 hours: how many, and when the oldest counted one leaves the window. */
export interface CapUse {
  used: number;
  resetsAt: Date | null;
}

// The window both caps count in.
const WINDOW = `interval '24 hours'`;

/**
 * The counts behind a number's caps (docs/sending.md): the chats it started (send_first_contacts)
 * and the messages a chat got since the contact last wrote. Checks take a transaction-scoped
 * advisory lock, so two sends at once (two api processes) cannot both take the last place.
 */
@Injectable()
export class SendCapsRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** Whether the contact ever wrote in this chat. */
  async hasInbound(workspaceId: string, conversationId: string, tx: SqlExecutor = this.sql): Promise<boolean> {
    const rows = await tx.query(`SELECT 1 FROM messages WHERE workspace_id = $1 AND conversation_id = $2 AND direction = 'inbound' LIMIT 1`, [
      workspaceId,
      conversationId,
    ]);
    return rows.length > 0;
  }

  /**
   * Whether this number already started this chat (it then counts no more): counted before, or
   * written to before (from the phone too, or before the caps existed) with a send that did not fail.
   */
  async started(workspaceId: string, conversationId: string, tx: SqlExecutor = this.sql): Promise<boolean> {
    const rows = await tx.query(
      `SELECT 1 WHERE EXISTS (SELECT 1 FROM send_first_contacts WHERE workspace_id = $1 AND conversation_id = $2)
          OR EXISTS (SELECT 1 FROM messages WHERE workspace_id = $1 AND conversation_id = $2 AND direction = 'outbound' AND status <> 'failed')`,
      [workspaceId, conversationId],
    );
    return rows.length > 0;
  }

  /** The chats started in the last 24 hours; with `tx`, after taking the number's lock. */
  async firstContacts(workspaceId: string, tx?: SqlExecutor): Promise<CapUse> {
    const executor = tx ?? this.sql;
    if (tx) await tx.query(`SELECT pg_advisory_xact_lock(hashtext('first-contacts:' || $1))`, [workspaceId]);
    const rows = await executor.query<{ used: number; oldest: Date | null }>(
      `SELECT count(*)::int AS used, min(at) AS oldest FROM send_first_contacts WHERE workspace_id = $1 AND at > now() - ${WINDOW}`,
      [workspaceId],
    );
    return useOf(rows[0]);
  }

  /** New chats started in the last 24 hours, per number (the metrics). */
  async firstContactsPerWorkspace(): Promise<{ workspaceId: string; used: number }[]> {
    return this.sql.query(
      `SELECT workspace_id AS "workspaceId", count(*)::int AS used FROM send_first_contacts WHERE at > now() - ${WINDOW} GROUP BY workspace_id`,
    );
  }

  async recordFirstContact(workspaceId: string, conversationId: string, tx: SqlExecutor): Promise<void> {
    await tx.query(`INSERT INTO send_first_contacts (workspace_id, conversation_id, at) VALUES ($1, $2, now()) ON CONFLICT DO NOTHING`, [
      workspaceId,
      conversationId,
    ]);
  }

  /** Messages sent to the chat in the last 24 hours since the contact last wrote (failed ones aside), after taking the chat's lock. */
  async unanswered(workspaceId: string, conversationId: string, tx: SqlExecutor): Promise<CapUse> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('unanswered:' || $1))`, [conversationId]);
    const rows = await tx.query<{ used: number; oldest: Date | null }>(
      `SELECT count(*)::int AS used, min(m.timestamp) AS oldest FROM messages m
        WHERE m.workspace_id = $1 AND m.conversation_id = $2 AND m.direction = 'outbound' AND m.status <> 'failed'
          AND m.timestamp > GREATEST(now() - ${WINDOW}, COALESCE((SELECT max(i.timestamp) FROM messages i
                WHERE i.workspace_id = $1 AND i.conversation_id = $2 AND i.direction = 'inbound'), '-infinity'))`,
      [workspaceId, conversationId],
    );
    return useOf(rows[0]);
  }

  /** One-to-one chats of the number that have reached the unanswered cap now. */
  async chatsAtUnansweredCap(workspaceId: string, cap: number): Promise<number> {
    const rows = await this.sql.query<{ chats: number }>(
      `SELECT count(*)::int AS chats FROM (
         SELECT m.conversation_id FROM messages m JOIN conversations c ON c.id = m.conversation_id AND NOT c.is_group
          WHERE m.workspace_id = $1 AND m.direction = 'outbound' AND m.status <> 'failed' AND m.channel = 'scan' AND m.timestamp > now() - ${WINDOW}
            AND m.timestamp > COALESCE((SELECT max(i.timestamp) FROM messages i
                  WHERE i.workspace_id = $1 AND i.conversation_id = m.conversation_id AND i.direction = 'inbound'), '-infinity')
          GROUP BY m.conversation_id HAVING count(*) >= $2) capped`,
      [workspaceId, cap],
    );
    return rows[0]?.chats ?? 0;
  }
}

const useOf = (row: { used: number; oldest: Date | null } | undefined): CapUse => ({
  used: row?.used ?? 0,
  resetsAt: row?.oldest ? new Date(row.oldest.getTime() + 24 * 3600_000) : null,
});
