import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { MessageEntity } from '../../inbox/entities/message.entity.js';
import { messageColumns } from '../../inbox/inbox-columns.js';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

/** A message whose media waits for download, with the driver's (encrypted) reference. */
export interface PendingMedia {
  message: MessageEntity;
  ref: string;
}

/**
 * SQL of the scan channel's inbound side: media references and history batches. It reads the
 * inbox's messages; what changes them goes through the inbox's services (ChannelUpdatesService).
 */
@Injectable()
export class ScanInboundRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** Keeps a message's media reference until its download; a repeat changes nothing. */
  async saveMediaRef(workspaceId: string, messageId: string, sealedRef: string): Promise<void> {
    await this.sql.query(`INSERT INTO scan_media_refs (workspace_id, message_id, ref) VALUES ($1, $2, $3) ON CONFLICT (message_id) DO NOTHING`, [
      workspaceId,
      messageId,
      sealedRef,
    ]);
  }

  /** The message and its media reference, or null when the reference is gone (downloaded, or the message deleted). */
  async pendingMedia(workspaceId: string, messageId: string): Promise<PendingMedia | null> {
    const rows: (MessageEntity & { ref: string })[] = await this.sql.query(
      `SELECT ${messageColumns('m')}, r.ref FROM scan_media_refs r JOIN messages m ON m.id = r.message_id
        WHERE r.workspace_id = $1 AND r.message_id = $2 AND m.workspace_id = $1`,
      [workspaceId, messageId],
    );
    const row = rows[0];
    if (!row) return null;
    const { ref, ...message } = row;
    return { message, ref };
  }

  /** Drops a message's media reference once its file is stored (on `tx`, with the inbox's record of it). */
  async dropMediaRef(workspaceId: string, messageId: string, tx: SqlExecutor = this.sql): Promise<void> {
    await tx.query(`DELETE FROM scan_media_refs WHERE workspace_id = $1 AND message_id = $2`, [workspaceId, messageId]);
  }

  /** Drops the reference of a download given up; returns the message as it stays (no media). */
  async mediaGivenUp(workspaceId: string, messageId: string, tx: SqlExecutor): Promise<MessageEntity | null> {
    const rows = await tx.query<MessageEntity>(
      `WITH dropped AS (DELETE FROM scan_media_refs WHERE workspace_id = $1 AND message_id = $2)
       SELECT ${messageColumns('m')} FROM messages m WHERE m.workspace_id = $1 AND m.id = $2`,
      [workspaceId, messageId],
    );
    return rows[0] ?? null;
  }

  async saveHistoryBatch(workspaceId: string, sealedPayload: string): Promise<string> {
    const rows = await this.sql.query<{ id: string }>(`INSERT INTO scan_history_batches (workspace_id, payload) VALUES ($1, $2) RETURNING id`, [
      workspaceId,
      sealedPayload,
    ]);
    return rows[0]!.id;
  }

  async historyBatch(workspaceId: string, id: string): Promise<string | null> {
    const rows = await this.sql.query<{ payload: string }>(`SELECT payload FROM scan_history_batches WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
    return rows[0]?.payload ?? null;
  }

  async deleteHistoryBatch(workspaceId: string, id: string): Promise<void> {
    await this.sql.query(`DELETE FROM scan_history_batches WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
  }

  /** The senders of these messages of a conversation (group read receipts name them). */
  async senders(workspaceId: string, conversationId: string, externalIds: string[]): Promise<Map<string, string>> {
    const rows = await this.sql.query<{ externalId: string; senderJid: string }>(
      `SELECT external_id AS "externalId", sender_jid AS "senderJid" FROM messages
        WHERE workspace_id = $1 AND conversation_id = $2 AND channel = 'scan' AND external_id = ANY($3::text[])`,
      [workspaceId, conversationId, externalIds],
    );
    return new Map(rows.map((row) => [row.externalId, row.senderJid]));
  }

  /**
   * Whether a send of ours to this chat is in flight (stored, not yet given its channel id): the
   * channel's echo of it must wait for that id, or it would be stored a second time. A pending
   * row's timestamp is its send time, so the (conversation, timestamp) index bounds the scan.
   */
  async sendInFlight(workspaceId: string, chatJid: string): Promise<boolean> {
    const rows = await this.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.workspace_id = $1 AND c.channel = 'scan' AND c.chat_jid = $2
          AND m.workspace_id = $1 AND m.direction = 'outbound' AND m.external_id IS NULL AND m.status = 'pending'
          AND m.timestamp > now() - interval '1 minute'`,
      [workspaceId, chatJid],
    );
    return rows[0]!.n > 0;
  }
}
