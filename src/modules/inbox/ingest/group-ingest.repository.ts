import { Injectable } from '@nestjs/common';
import { jsonRows } from '../../../infra/database/json-rows.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import { type ConversationIdentity, unprefix } from '../inbox-columns.js';
import { FIND_GROUP, INGEST_GROUP, LOCK_GROUP, MOVE_GROUP } from './group-ingest.sql.js';
import type { NormalizedInbound } from './inbound-message.js';
import { RetryIngest } from './retry.js';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';

/** One message of a group, with the workspace it belongs to. */
export interface GroupMessage {
  workspaceId: string;
  message: NormalizedInbound;
}

export interface GroupRow {
  message: MessageEntity;
  conversation: ConversationEntity;
}

/** A message the group statement inserted: what identifies its conversation (the whole row comes from `moveConversations`). */
export interface InsertedRow {
  message: MessageEntity;
  chat: ConversationIdentity;
  preview: string;
}

/**
 * Per message of the group (same index): `created` (inserted now), `stored` (its chat is known and
 * it was stored before, or by a concurrent transaction) or `unknown` (new chat, something to fill
 * in, or an earlier message of its chat is unknown): the per-message path takes it.
 */
export type GroupOutcome = { state: 'created'; row: InsertedRow } | { state: 'stored' } | { state: 'unknown' };

/** The message row as INGEST_GROUP inserted it: the group's values, and what the insert made. */
function insertedMessage({ workspaceId, message }: GroupMessage, conversationId: string, row: Record<string, unknown>): MessageEntity {
  return {
    id: row.m_id as string,
    workspaceId,
    conversationId,
    channel: message.chat.channel,
    externalId: message.externalId,
    direction: message.direction,
    senderJid: message.senderJid,
    senderName: message.senderName,
    messageType: message.type,
    content: message.content,
    mediaUrl: message.mediaUrl,
    mimeType: message.mimeType,
    fileName: message.fileName,
    fileSize: message.fileSize,
    durationS: message.durationS,
    quotedExternalId: message.quotedExternalId,
    quotedId: (row.m_quotedId as string | null) ?? null,
    details: message.details,
    reactions: [],
    editedAt: null,
    deletedAt: null,
    status: message.status,
    error: null,
    timestamp: new Date(message.timestamp.getTime()),
    seq: row.m_seq as string,
    conversationSeq: row.m_conversationSeq as string,
    createdAt: row.m_createdAt as Date,
  };
}

const rowOf = (row: Record<string, unknown>): GroupRow => ({
  message: unprefix<MessageEntity>(row, 'm_'),
  conversation: unprefix<ConversationEntity>(row, 'c_'),
});

/**
 * SQL of the live path's group commit: several callers' messages (any workspace: each row carries
 * its own, which the statements match on) in one statement, on the group's transaction.
 */
@Injectable()
export class GroupIngestRepository {
  async lockConversations(group: readonly GroupMessage[], tx: SqlExecutor): Promise<void> {
    await tx.query(
      LOCK_GROUP,
      [group.map((e) => e.workspaceId), group.map((e) => e.message.chat.channel), group.map((e) => e.message.chat.chatJid)],
      'inbox_lock_group',
    );
  }

  async ingestKnown(group: readonly GroupMessage[], tx: SqlExecutor): Promise<GroupOutcome[]> {
    const rows = await tx.query<Record<string, unknown>>(
      INGEST_GROUP,
      [
        // In GROUP_COLUMNS' order (group-ingest.sql.ts).
        jsonRows(
          group.map(({ workspaceId, message }) => {
            const { chat } = message;
            return [
              workspaceId,
              chat.channel,
              chat.chatJid,
              chat.isGroup,
              chat.chatName,
              chat.contact?.phone ?? null,
              chat.contact?.lid ?? null,
              chat.contact?.name ?? '',
              chat.contact !== null,
              chat.chatPhone,
              chat.contact?.bsuid ?? null,
              message.externalId,
              message.direction,
              message.senderJid,
              message.senderName,
              message.type,
              message.content,
              message.mediaUrl,
              message.mimeType,
              message.fileName,
              message.fileSize,
              message.status,
              message.timestamp.toISOString(),
              message.durationS,
              message.quotedExternalId,
              message.details ? JSON.stringify(message.details) : null,
            ];
          }),
        ),
      ],
      'inbox_ingest_group',
    );
    const outcomes: GroupOutcome[] = group.map(() => ({ state: 'unknown' }));
    for (const row of rows) {
      const index = (row.ord as number) - 1;
      // A number taken and not used (the channel id was stored meanwhile, under another chat) would
      // leave a gap in its conversation: run the group again, which then sees it as a repeat.
      if (row.planned === true && !row.m_id) throw new RetryIngest();
      if (!row.m_id) {
        outcomes[index] = { state: 'stored' };
        continue;
      }
      const chat = unprefix<ConversationIdentity>(row, 'c_');
      const message = insertedMessage(group[index]!, chat.id, row);
      outcomes[index] = { state: 'created', row: { message, chat, preview: row.preview as string } };
    }
    return outcomes;
  }

  /** Moves the conversations of these inserted messages, each once, and answers them as moved, by id. */
  async moveConversations(inserted: readonly InsertedRow[], tx: SqlExecutor): Promise<Map<string, ConversationEntity>> {
    if (inserted.length === 0) return new Map();
    const moved = await tx.query<ConversationEntity>(
      MOVE_GROUP,
      [
        inserted.map(({ message }) => message.conversationId),
        jsonRows(inserted.map(({ message, preview }) => [message.conversationId, message.timestamp.toISOString(), message.seq, preview, message.direction])),
      ],
      'inbox_move_group',
    );
    return new Map(moved.map((row) => [row.id, row]));
  }

  /** The stored messages of these group members (same index; undefined: not visible yet). */
  async findStored(group: readonly GroupMessage[], tx: SqlExecutor): Promise<(GroupRow | undefined)[]> {
    const rows = await tx.query<Record<string, unknown>>(
      FIND_GROUP,
      [group.map((e) => e.workspaceId), group.map((e) => e.message.chat.channel), group.map((e) => e.message.externalId)],
      'inbox_find_group',
    );
    const found: (GroupRow | undefined)[] = group.map(() => undefined);
    for (const row of rows) found[(row.ord as number) - 1] = rowOf(row);
    return found;
  }
}
