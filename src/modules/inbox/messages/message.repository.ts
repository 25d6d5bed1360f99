import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity, MessageStatus, MessageType } from '../entities/message.entity.js';
import { conversationColumns, messageColumns, moveLastMessageSql, previewSql, rowsOf, unprefix } from '../inbox-columns.js';
import type { MessageCursor } from './message-cursor.js';
import { ALLOWED_FROM } from './message-status.js';

export interface NewOutboundMessage {
  type: MessageType;
  content: string;
  mediaUrl: string;
  mimeType: string;
  fileName: string;
  fileSize: number;
  timestamp: Date;
}

export type PagedMessage = MessageEntity & { cursorMicros: string };

const COLUMNS = messageColumns('m');

@Injectable()
export class MessageRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Newest first, strictly older than `before` in (timestamp, seq) order: a keyset page, so rows
   * inserted meanwhile never shift it (index: conversation_id, timestamp DESC, seq DESC). A cursor
   * of the earlier format names a message id: its seq is looked up (a message deleted since
   * then counts as seq 0, so the page goes on with older timestamps).
   */
  page(workspaceId: string, conversationId: string, limit: number, before: MessageCursor | null): Promise<PagedMessage[]> {
    const params: unknown[] = [workspaceId, conversationId, limit];
    let keyset = '';
    if (before) {
      const tie = before.seq !== undefined
        ? '$5::bigint'
        : 'COALESCE((SELECT o.seq FROM messages o WHERE o.workspace_id = $1 AND o.conversation_id = $2 AND o.id = $5::uuid), 0)';
      params.push(before.micros, before.seq ?? before.id);
      keyset = `AND (m.timestamp, m.seq) < (timestamptz 'epoch' + $4::bigint * interval '1 microsecond', ${tie})`;
    }
    return this.db.query(
      `SELECT ${COLUMNS}, (extract(epoch from m.timestamp) * 1000000)::bigint::text AS "cursorMicros"
         FROM messages m
        WHERE m.workspace_id = $1 AND m.conversation_id = $2 ${keyset}
        ORDER BY m.timestamp DESC, m.seq DESC
        LIMIT $3`,
      params,
    );
  }

  /** A pending outbound message, and the conversation's last message moved to it, in one statement. */
  async insertOutbound(
    workspaceId: string,
    conversationId: string,
    message: NewOutboundMessage,
  ): Promise<{ message: MessageEntity; conversation: ConversationEntity }> {
    const rows: Record<string, unknown>[] = await this.db.query(
      `WITH m AS (
         INSERT INTO messages (workspace_id, conversation_id, channel, direction, message_type, content, media_url,
                               mime_type, file_name, file_size, status, timestamp)
         SELECT $1, c.id, c.channel, 'outbound', $3, $4, $5, $6, $7, $8, 'pending', $9
           FROM conversations c WHERE c.workspace_id = $1 AND c.id = $2
         RETURNING *
       ), c AS (
         UPDATE conversations cv SET
           ${moveLastMessageSql('m')},
           updated_at = now()
          FROM m WHERE cv.id = m.conversation_id
         RETURNING cv.*
       )
       SELECT ${messageColumns('m', 'm_')}, ${conversationColumns('c', 'c_')} FROM m JOIN c ON c.id = m.conversation_id`,
      [workspaceId, conversationId, message.type, message.content, message.mediaUrl, message.mimeType, message.fileName, message.fileSize, message.timestamp],
    );
    const row = rows[0];
    if (!row) throw new Error(`conversation ${conversationId} vanished while sending`);
    return { message: unprefix<MessageEntity>(row, 'm_'), conversation: unprefix<ConversationEntity>(row, 'c_') };
  }

  /**
   * Records the channel's id for a message we sent and moves it to `sent`. When the channel's echo
   * of the same message was ingested first (it owns that id now), the echo is kept and our
   * pending row is dropped, so the conversation never shows the message twice.
   */
  async markSent(workspaceId: string, id: string, channel: ChannelName, externalId: string, senderJid = ''): Promise<MessageEntity | null> {
    try {
      const result: [MessageEntity[], number] = await this.db.query(
        `UPDATE messages m SET external_id = $3, status = CASE WHEN m.status = ANY($4::text[]) THEN 'sent' ELSE m.status END,
                sender_jid = CASE WHEN m.sender_jid = '' THEN $5 ELSE m.sender_jid END
          WHERE m.workspace_id = $1 AND m.id = $2
         RETURNING ${COLUMNS}`,
        [workspaceId, id, externalId, ALLOWED_FROM.sent, senderJid],
      );
      return rowsOf(result)[0] ?? null;
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error;
      await this.db.query(`DELETE FROM messages WHERE workspace_id = $1 AND id = $2 AND external_id IS NULL`, [workspaceId, id]);
      const rows: MessageEntity[] = await this.db.query(
        `SELECT ${COLUMNS} FROM messages m WHERE m.workspace_id = $1 AND m.channel = $2 AND m.external_id = $3`,
        [workspaceId, channel, externalId],
      );
      return rows[0] ?? null;
    }
  }

  /** Moves one message (by our id) to `status`, if the forward-only rule allows it. */
  async setStatusById(workspaceId: string, id: string, status: MessageStatus, error: string | null): Promise<MessageEntity | null> {
    const result: [MessageEntity[], number] = await this.db.query(
      `UPDATE messages m SET status = $3, error = CASE WHEN $3 = 'failed' THEN $4 ELSE m.error END
        WHERE m.workspace_id = $1 AND m.id = $2 AND m.status = ANY($5::text[])
       RETURNING ${COLUMNS}`,
      [workspaceId, id, status, error, ALLOWED_FROM[status]],
    );
    return rowsOf(result)[0] ?? null;
  }

  /** Moves one message (by channel id) to `status`, if the forward-only rule allows it. */
  async setStatusByExternalId(
    workspaceId: string,
    channel: ChannelName,
    externalId: string,
    status: MessageStatus,
    error: string | null,
  ): Promise<MessageEntity | null> {
    const result: [MessageEntity[], number] = await this.db.query(
      `UPDATE messages m SET status = $4, error = CASE WHEN $4 = 'failed' THEN $5 ELSE m.error END
        WHERE m.workspace_id = $1 AND m.channel = $2 AND m.external_id = $3 AND m.status = ANY($6::text[])
       RETURNING ${COLUMNS}`,
      [workspaceId, channel, externalId, status, error, ALLOWED_FROM[status]],
    );
    return rowsOf(result)[0] ?? null;
  }

  /**
   * A channel's edit: the new text (or caption) of a message, by channel id. The conversation's
   * preview follows when it is the conversation's latest message: the one whose seq the
   * conversation holds (a timestamp compare would also take an older message of the same second).
   * Null for an unknown message.
   */
  async setContentByExternalId(
    workspaceId: string,
    channel: ChannelName,
    externalId: string,
    content: string,
  ): Promise<{ message: MessageEntity; conversation: ConversationEntity } | null> {
    const rows: Record<string, unknown>[] = await this.db.query(
      `WITH m AS (
         UPDATE messages m SET content = $4
          WHERE m.workspace_id = $1 AND m.channel = $2 AND m.external_id = $3
         RETURNING *
       ), c AS (
         UPDATE conversations cv SET
           last_message_preview = CASE WHEN m.seq = cv.last_message_seq THEN ${previewSql('m')} ELSE cv.last_message_preview END,
           updated_at = now()
          FROM m WHERE cv.workspace_id = $1 AND cv.id = m.conversation_id
         RETURNING cv.*
       )
       SELECT ${messageColumns('m', 'm_')}, ${conversationColumns('c', 'c_')} FROM m JOIN c ON c.id = m.conversation_id`,
      [workspaceId, channel, externalId, content],
    );
    const row = rows[0];
    return row ? { message: unprefix<MessageEntity>(row, 'm_'), conversation: unprefix<ConversationEntity>(row, 'c_') } : null;
  }

  /** Channel ids of the newest inbound messages, for read receipts. */
  async latestInboundIds(workspaceId: string, conversationId: string, limit: number): Promise<string[]> {
    const rows: { externalId: string }[] = await this.db.query(
      `SELECT m.external_id AS "externalId" FROM messages m
        WHERE m.workspace_id = $1 AND m.conversation_id = $2 AND m.direction = 'inbound' AND m.external_id IS NOT NULL
        ORDER BY m.timestamp DESC, m.seq DESC LIMIT $3`,
      [workspaceId, conversationId, limit],
    );
    return rows.map((row) => row.externalId);
  }
}
