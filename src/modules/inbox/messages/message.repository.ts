import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity, MessageStatus } from '../entities/message.entity.js';
import { conversationColumns, insertMessagesSql, messageColumns, messageReadColumns, moveLastMessageSql, unprefix } from '../inbox-columns.js';
import { wellFormedStrings } from '../ingest/inbound-message.js';
import type { MessageDetails } from '../message-details.js';
import type { MessageKind } from '../message-kinds.js';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { MessageCursor } from './message-cursor.js';
import { ALLOWED_FROM } from './message-status.js';
import { microsOf } from '../../../infra/database/sql-micros.js';

export interface NewOutboundMessage {
  type: MessageKind;
  content: string;
  mediaUrl: string;
  mimeType: string;
  fileName: string;
  fileSize: number;
  timestamp: Date;
  /** Playing time of audio, voice and video, when known. */
  durationS?: number;
  /** The message this one replies to (`reply_to`): its channel id and ours. */
  quoted?: { externalId: string; id: string } | null;
  /** Location, contact cards (message-details.ts). */
  details?: MessageDetails | null;
}

export type PagedMessage = MessageEntity & { cursorMicros: string };

/** A message's file, stored where the media routes serve it. */
export interface StoredMedia {
  url: string;
  fileSize: number;
  /** What the channel says the file is; '' when it says nothing (the message's own is kept). */
  mimeType: string;
  /** The playing time read from the file, for a timed kind whose channel gave none; fills only a 0. */
  durationS?: number;
}

const COLUMNS = messageColumns('m');
// The list's: a reply stored before the message it quotes finds it when read (resolvedQuotedIdSql).
const LIST_COLUMNS = messageReadColumns('m');

// The pending row of a send: no channel id or sender yet (markSent fills them in). It takes the
// conversation's next conversation_seq under the row's lock (held to the commit: gap-free), as
// every insert path does; the update moves the counter on.
const INSERT_OUTBOUND = `WITH k AS (
         SELECT c.id, c.channel, c.last_seq FROM conversations c WHERE c.workspace_id = $1 AND c.id = $2 FOR NO KEY UPDATE
       ), m AS (
         ${insertMessagesSql({
           workspace_id: '$1',
           conversation_id: 'k.id',
           channel: 'k.channel',
           external_id: null,
           direction: "'outbound'",
           sender_jid: null,
           sender_name: null,
           message_type: '$3',
           content: '$4',
           media_url: '$5',
           mime_type: '$6',
           file_name: '$7',
           file_size: '$8',
           duration_s: '$10',
           quoted_external_id: '$11',
           // The service found it in this conversation (reply_to); kept to it here too, as every insert path does.
           quoted_id: '(SELECT q.id FROM messages q WHERE q.workspace_id = $1 AND q.conversation_id = k.id AND q.id = $12::uuid)',
           details: '$13::jsonb',
           status: "'pending'",
           timestamp: '$9',
           seq: null,
           conversation_seq: 'k.last_seq + 1',
         })}
           FROM k
         RETURNING *
       ), c AS (
         UPDATE conversations cv SET
           ${moveLastMessageSql('m')},
           last_seq = m.conversation_seq,
           updated_at = now()
          FROM m WHERE cv.id = m.conversation_id
         RETURNING cv.*
       )
       SELECT ${messageColumns('m', 'm_')}, ${conversationColumns('c', 'c_')} FROM m JOIN c ON c.id = m.conversation_id`;

@Injectable()
export class MessageRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

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
      const tie =
        before.seq !== undefined
          ? '$5::bigint'
          : 'COALESCE((SELECT o.seq FROM messages o WHERE o.workspace_id = $1 AND o.conversation_id = $2 AND o.id = $5::uuid), 0)';
      params.push(before.micros, before.seq ?? before.id);
      keyset = `AND (m.timestamp, m.seq) < (timestamptz 'epoch' + $4::bigint * interval '1 microsecond', ${tie})`;
    }
    return this.sql.query(
      `SELECT ${LIST_COLUMNS}, ${microsOf('m.timestamp')}::text AS "cursorMicros"
         FROM messages m
        WHERE m.workspace_id = $1 AND m.conversation_id = $2 ${keyset}
        ORDER BY m.timestamp DESC, m.seq DESC
        LIMIT $3`,
      params,
    );
  }

  /**
   * Oldest first, the messages whose conversation_seq is greater than `afterSeq` (a receiver
   * filling a gap): a range scan of the unique index (conversation_id, conversation_seq).
   */
  pageAfterSeq(workspaceId: string, conversationId: string, limit: number, afterSeq: number): Promise<MessageEntity[]> {
    return this.sql.query(
      `SELECT ${LIST_COLUMNS} FROM messages m
        WHERE m.workspace_id = $1 AND m.conversation_id = $2 AND m.conversation_seq > $3::bigint
        ORDER BY m.conversation_seq
        LIMIT $4`,
      [workspaceId, conversationId, afterSeq, limit],
    );
  }

  /**
   * A pending outbound message, and the conversation's last message moved to it, in one statement
   * (on `tx` when the change's hooks write beside it, InboxChangeHooks).
   */
  async insertOutbound(
    workspaceId: string,
    conversationId: string,
    message: NewOutboundMessage,
    tx: SqlExecutor = this.sql,
  ): Promise<{ message: MessageEntity; conversation: ConversationEntity }> {
    const rows = await tx.query<Record<string, unknown>>(INSERT_OUTBOUND, [
      workspaceId,
      conversationId,
      message.type,
      message.content,
      message.mediaUrl,
      message.mimeType,
      message.fileName,
      message.fileSize,
      message.timestamp,
      message.durationS ?? 0,
      message.quoted?.externalId ?? '',
      message.quoted?.id ?? null,
      // A lone surrogate in a card's name would make jsonb refuse the row (a 500): as ingest does, U+FFFD.
      message.details ? JSON.stringify(wellFormedStrings(message.details)) : null,
    ]);
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
      const result = await this.sql.query<MessageEntity>(
        `UPDATE messages m SET external_id = $3, status = CASE WHEN m.status = ANY($4::text[]) THEN 'sent' ELSE m.status END,
                sender_jid = CASE WHEN m.sender_jid = '' THEN $5 ELSE m.sender_jid END
          WHERE m.workspace_id = $1 AND m.id = $2
         RETURNING ${COLUMNS}`,
        [workspaceId, id, externalId, ALLOWED_FROM.sent, senderJid],
      );
      return result[0] ?? null;
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error;
      await this.sql.query(`DELETE FROM messages WHERE workspace_id = $1 AND id = $2 AND external_id IS NULL`, [workspaceId, id]);
      const rows = await this.sql.query<MessageEntity>(
        `SELECT ${COLUMNS} FROM messages m WHERE m.workspace_id = $1 AND m.channel = $2 AND m.external_id = $3`,
        [workspaceId, channel, externalId],
      );
      return rows[0] ?? null;
    }
  }

  /** Moves one message (by our id) to `status`, if the forward-only rule allows it. */
  async setStatusById(workspaceId: string, id: string, status: MessageStatus, error: string | null, tx: SqlExecutor = this.sql): Promise<MessageEntity | null> {
    const result = await tx.query<MessageEntity>(
      `UPDATE messages m SET status = $3, error = CASE WHEN $3 = 'failed' THEN $4 ELSE m.error END
        WHERE m.workspace_id = $1 AND m.id = $2 AND m.status = ANY($5::text[])
       RETURNING ${COLUMNS}`,
      [workspaceId, id, status, error, ALLOWED_FROM[status]],
    );
    return result[0] ?? null;
  }

  /** Moves one message (by channel id) to `status`, if the forward-only rule allows it. */
  async setStatusByExternalId(
    workspaceId: string,
    channel: ChannelName,
    externalId: string,
    status: MessageStatus,
    error: string | null,
  ): Promise<MessageEntity | null> {
    const result = await this.sql.query<MessageEntity>(
      `UPDATE messages m SET status = $4, error = CASE WHEN $4 = 'failed' THEN $5 ELSE m.error END
        WHERE m.workspace_id = $1 AND m.channel = $2 AND m.external_id = $3 AND m.status = ANY($6::text[])
       RETURNING ${COLUMNS}`,
      [workspaceId, channel, externalId, status, error, ALLOWED_FROM[status]],
    );
    return result[0] ?? null;
  }

  /**
   * A receipt's move in the change's transaction `tx` (its hooks write beside it): the row locked,
   * moved as setStatusByExternalId moves it, with its conversation and the status it had. With
   * `always` (a `played` receipt, stored as `read`) the row is answered even when it did not move,
   * `moved` false; otherwise null when it did not move or is unknown.
   */
  async moveStatus(
    workspaceId: string,
    channel: ChannelName,
    externalId: string,
    status: MessageStatus,
    error: string | null,
    always: boolean,
    tx: SqlExecutor,
  ): Promise<{ message: MessageEntity; conversation: ConversationEntity; previousStatus: MessageStatus; moved: boolean } | null> {
    const rows = await tx.query<Record<string, unknown> & { previous_status: MessageStatus; u_id: string | null }>(
      `WITH p AS (SELECT m.* FROM messages m WHERE m.workspace_id = $1 AND m.channel = $2 AND m.external_id = $3 FOR UPDATE),
            u AS (UPDATE messages m SET status = $4, error = CASE WHEN $4 = 'failed' THEN $5 ELSE m.error END
                    FROM p WHERE m.workspace_id = $1 AND m.id = p.id AND m.status = ANY($6::text[])
                  RETURNING m.*)
       SELECT p.status AS previous_status, ${messageColumns('u', 'u_')}, ${messageColumns('p', 'p_')}, ${conversationColumns('c', 'c_')}
         FROM p LEFT JOIN u ON u.id = p.id JOIN conversations c ON c.workspace_id = $1 AND c.id = p.conversation_id`,
      [workspaceId, channel, externalId, status, error, ALLOWED_FROM[status]],
    );
    const row = rows[0];
    if (!row) return null;
    const moved = row.u_id !== null;
    if (!moved && !always) return null;
    return {
      message: unprefix<MessageEntity>(row, moved ? 'u_' : 'p_'),
      conversation: unprefix<ConversationEntity>(row, 'c_'),
      previousStatus: row.previous_status,
      moved,
    };
  }

  /**
   * A message of one conversation by our id (a reply's quote, a reaction's, a delete's or an
   * edit's target); null when the conversation has none such (another conversation's or
   * workspace's is none).
   */
  async findInConversation(workspaceId: string, conversationId: string, id: string): Promise<MessageEntity | null> {
    const rows = await this.sql.query<MessageEntity>(
      `SELECT ${COLUMNS} FROM messages m WHERE m.workspace_id = $1 AND m.conversation_id = $2 AND m.id = $3::uuid`,
      [workspaceId, conversationId, id],
    );
    return rows[0] ?? null;
  }

  /** Who this number is in a conversation: the sender of its latest message there that has one ('' when none). */
  async ownSenderJid(workspaceId: string, conversationId: string): Promise<string> {
    const rows = await this.sql.query<{ senderJid: string }>(
      `SELECT m.sender_jid AS "senderJid" FROM messages m
        WHERE m.workspace_id = $1 AND m.conversation_id = $2 AND m.direction = 'outbound' AND m.sender_jid <> ''
        ORDER BY m.timestamp DESC, m.seq DESC LIMIT 1`,
      [workspaceId, conversationId],
    );
    return rows[0]?.senderJid ?? '';
  }

  /** Channel ids of the newest inbound messages, for read receipts. */
  async latestInboundIds(workspaceId: string, conversationId: string, limit: number): Promise<string[]> {
    const rows = await this.sql.query<{ externalId: string }>(
      `SELECT m.external_id AS "externalId" FROM messages m
        WHERE m.workspace_id = $1 AND m.conversation_id = $2 AND m.direction = 'inbound' AND m.external_id IS NOT NULL
        ORDER BY m.timestamp DESC, m.seq DESC LIMIT $3`,
      [workspaceId, conversationId, limit],
    );
    return rows.map((row) => row.externalId);
  }

  /**
   * Records where a message's downloaded file is served, its size when the message had none, its
   * type when the message had none (`mimeType` '' keeps whatever it has) and its playing time
   * when the message had none (the channel's own, when it gave one, wins). On `q`: the caller's
   * transaction, when it records more with it.
   */
  async setMedia(workspaceId: string, id: string, media: StoredMedia, q: SqlExecutor = this.sql): Promise<MessageEntity | null> {
    const rows = await q.query<MessageEntity>(
      `UPDATE messages m SET media_url = $3, file_size = CASE WHEN m.file_size > 0 THEN m.file_size ELSE $4 END,
              mime_type = CASE WHEN m.mime_type = '' THEN $5 ELSE m.mime_type END,
              duration_s = CASE WHEN m.duration_s > 0 THEN m.duration_s ELSE $6 END
        WHERE m.workspace_id = $1 AND m.id = $2
       RETURNING ${COLUMNS}`,
      [workspaceId, id, media.url, media.fileSize, media.mimeType, media.durationS ?? 0],
    );
    return rows[0] ?? null;
  }
}
