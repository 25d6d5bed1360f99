import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { MessageEntity } from '../../inbox/entities/message.entity.js';
import { messageColumns } from '../../inbox/inbox-columns.js';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

/** Reads of the cloud channel's inbound side on the inbox's tables (writes go through the inbox's services). */
@Injectable()
export class MetaInboundRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * The chat id of this person's existing cloud conversation, if any: found through the contact
   * holding the phone or the BSUID, preferring the chat addressed by `phoneJid`. Keeps one
   * conversation per person when the provider starts or stops sharing the phone number.
   */
  async knownChatJid(workspaceId: string, phone: string | null, bsuid: string | null, phoneJid: string | null): Promise<string | null> {
    const rows = await this.sql.query<{ chatJid: string }>(
      `SELECT cv.chat_jid AS "chatJid" FROM contacts c
         JOIN conversations cv ON cv.contact_id = c.id AND cv.workspace_id = c.workspace_id AND cv.channel = 'meta'
        WHERE c.workspace_id = $1 AND (c.phone = $2::text OR c.bsuid = $3::text)
        ORDER BY (cv.chat_jid = $4::text) DESC, cv.last_message_at DESC
        LIMIT 1`,
      [workspaceId, phone, bsuid, phoneJid],
    );
    return rows[0]?.chatJid ?? null;
  }

  async message(workspaceId: string, messageId: string): Promise<MessageEntity | null> {
    const rows = await this.sql.query<MessageEntity>(`SELECT ${messageColumns('m')} FROM messages m WHERE m.workspace_id = $1 AND m.id = $2`, [
      workspaceId,
      messageId,
    ]);
    return rows[0] ?? null;
  }

  async hasMessage(workspaceId: string, externalId: string): Promise<boolean> {
    const rows = await this.sql.query<unknown>(`SELECT 1 FROM messages WHERE workspace_id = $1 AND channel = 'meta' AND external_id = $2`, [
      workspaceId,
      externalId,
    ]);
    return rows.length > 0;
  }

  /**
   * Whether a cloud send of this workspace is in flight (stored, not yet given the provider's
   * id): a status for an id we do not know yet may be about it.
   */
  async sendInFlight(workspaceId: string): Promise<boolean> {
    const rows = await this.sql.query<unknown>(
      // (workspace_id, channel, external_id) is indexed, NULLs included.
      `SELECT 1 FROM messages m
        WHERE m.workspace_id = $1 AND m.channel = 'meta' AND m.external_id IS NULL
          AND m.direction = 'outbound' AND m.status = 'pending' AND m.timestamp > now() - interval '1 minute'
        LIMIT 1`,
      [workspaceId],
    );
    return rows.length > 0;
  }
}
