import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ConversationEntity } from '../../inbox/entities/conversation.entity.js';
import type { MessageEntity } from '../../inbox/entities/message.entity.js';
import { conversationColumns, messageColumns, rowsOf } from '../../inbox/inbox-columns.js';
import type { SqlExecutor } from '../../inbox/ingest/sql-transaction.js';

/** A message whose media waits for download, with the driver's (encrypted) reference. */
export interface PendingMedia {
  message: MessageEntity;
  ref: string;
}

/** SQL of the scan channel's inbound side: media references, history batches, LID links. */
@Injectable()
export class ScanInboundRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A group conversation takes the group's new subject; null when there is none or the name is unchanged. */
  async renameGroup(workspaceId: string, chatJid: string, name: string): Promise<ConversationEntity | null> {
    const result: [ConversationEntity[], number] = await this.db.query(
      `UPDATE conversations c SET chat_name = $3, updated_at = now()
        WHERE c.workspace_id = $1 AND c.channel = 'scan' AND c.chat_jid = $2 AND c.is_group AND c.chat_name <> $3
       RETURNING ${conversationColumns('c')}`,
      [workspaceId, chatJid, name],
    );
    return rowsOf(result)[0] ?? null;
  }

  /** Keeps a message's media reference until its download; a repeat changes nothing. */
  async saveMediaRef(workspaceId: string, messageId: string, sealedRef: string): Promise<void> {
    await this.db.query(
      `INSERT INTO scan_media_refs (workspace_id, message_id, ref) VALUES ($1, $2, $3) ON CONFLICT (message_id) DO NOTHING`,
      [workspaceId, messageId, sealedRef],
    );
  }

  /** The message and its media reference, or null when the reference is gone (downloaded, or the message deleted). */
  async pendingMedia(workspaceId: string, messageId: string): Promise<PendingMedia | null> {
    const rows: (MessageEntity & { ref: string })[] = await this.db.query(
      `SELECT ${messageColumns('m')}, r.ref FROM scan_media_refs r JOIN messages m ON m.id = r.message_id
        WHERE r.workspace_id = $1 AND r.message_id = $2 AND m.workspace_id = $1`,
      [workspaceId, messageId],
    );
    const row = rows[0];
    if (!row) return null;
    const { ref, ...message } = row;
    return { message, ref };
  }

  /** Records where the file is served and drops the reference, in one statement (on `tx`). */
  async mediaStored(workspaceId: string, messageId: string, mediaUrl: string, fileSize: number, tx: SqlExecutor): Promise<MessageEntity | null> {
    const rows = await tx.query<MessageEntity>(
      `WITH dropped AS (DELETE FROM scan_media_refs WHERE workspace_id = $1 AND message_id = $2)
       UPDATE messages m SET media_url = $3, file_size = CASE WHEN m.file_size > 0 THEN m.file_size ELSE $4 END
        WHERE m.workspace_id = $1 AND m.id = $2
       RETURNING ${messageColumns('m')}`,
      [workspaceId, messageId, mediaUrl, fileSize],
    );
    return rows[0] ?? null;
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
    const rows: { id: string }[] = await this.db.query(
      `INSERT INTO scan_history_batches (workspace_id, payload) VALUES ($1, $2) RETURNING id`,
      [workspaceId, sealedPayload],
    );
    return rows[0]!.id;
  }

  async historyBatch(workspaceId: string, id: string): Promise<string | null> {
    const rows: { payload: string }[] = await this.db.query(
      `SELECT payload FROM scan_history_batches WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id],
    );
    return rows[0]?.payload ?? null;
  }

  async deleteHistoryBatch(workspaceId: string, id: string): Promise<void> {
    await this.db.query(`DELETE FROM scan_history_batches WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
  }

  /**
   * Gives the person's contacts the id they lack (the phone's contact its LID, the LID's contact
   * its phone) unless another contact holds it, and a LID-addressed chat its phone number. Runs
   * after the split-contact merge, in its transaction.
   */
  async linkLid(workspaceId: string, phone: string, lid: string, tx: SqlExecutor): Promise<void> {
    await tx.query(
      `UPDATE contacts c SET lid = $3, updated_at = now()
        WHERE c.workspace_id = $1 AND c.phone = $2 AND c.lid IS NULL
          AND NOT EXISTS (SELECT 1 FROM contacts o WHERE o.workspace_id = $1 AND o.lid = $3)`,
      [workspaceId, phone, lid],
    );
    await tx.query(
      `UPDATE contacts c SET phone = $2, updated_at = now()
        WHERE c.workspace_id = $1 AND c.lid = $3 AND c.phone IS NULL
          AND NOT EXISTS (SELECT 1 FROM contacts o WHERE o.workspace_id = $1 AND o.phone = $2)`,
      [workspaceId, phone, lid],
    );
    await tx.query(
      `UPDATE conversations c SET chat_phone = $2, updated_at = now()
        WHERE c.workspace_id = $1 AND c.channel = 'scan' AND c.chat_jid = $3 || '@lid' AND c.chat_phone = ''`,
      [workspaceId, phone, lid],
    );
  }

  /** The senders of these messages of a conversation (group read receipts name them). */
  async senders(workspaceId: string, conversationId: string, externalIds: string[]): Promise<Map<string, string>> {
    const rows: { externalId: string; senderJid: string }[] = await this.db.query(
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
    const rows: { n: number }[] = await this.db.query(
      `SELECT count(*)::int AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.workspace_id = $1 AND c.channel = 'scan' AND c.chat_jid = $2
          AND m.workspace_id = $1 AND m.direction = 'outbound' AND m.external_id IS NULL AND m.status = 'pending'
          AND m.timestamp > now() - interval '1 minute'`,
      [workspaceId, chatJid],
    );
    return rows[0]!.n > 0;
  }
}
