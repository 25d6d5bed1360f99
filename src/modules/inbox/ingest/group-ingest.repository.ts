import { Injectable } from '@nestjs/common';
import { type JsonColumn, jsonRows, jsonRowsSql } from '../../../infra/database/json-rows.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import {
  type ConversationIdentity,
  conversationColumns,
  conversationIdentityColumns,
  insertMessagesSql,
  latestPerConversationSql,
  messageColumns,
  moveLastMessageSql,
  PREVIEW_COLUMNS,
  previewSql,
  unprefix,
} from '../inbox-columns.js';
import type { NormalizedInbound } from './inbound-message.js';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';

/** One message of a group, with the workspace it belongs to. */
export interface GroupMessage {
  workspaceId: string;
  message: NormalizedInbound;
}

// The group's rows (jsonRows, in this order): the message, its chat and its sender.
const GROUP_COLUMNS: readonly JsonColumn[] = [
  ['workspace_id', 'uuid'],
  ['channel', 'text'],
  ['chat_jid', 'text'],
  ['is_group', 'boolean'],
  ['chat_name', 'text'],
  ['phone', 'text'],
  ['lid', 'text'],
  ['name', 'text'],
  ['has_contact', 'boolean'],
  ['chat_phone', 'text'],
  ['bsuid', 'text'],
  ['external_id', 'text'],
  ['direction', 'text'],
  ['sender_jid', 'text'],
  ['sender_name', 'text'],
  ['message_type', 'text'],
  ['content', 'text'],
  ['media_url', 'text'],
  ['mime_type', 'text'],
  ['file_name', 'text'],
  ['file_size', 'int'],
  ['status', 'text'],
  ['ts', 'timestamptz'],
];

/**
 * The messages of a group commit (any workspaces, any channels) whose chat is known and needs
 * nothing filled in, in one statement: the rows travel as one JSON parameter (jsonRows), each is
 * matched to its conversation under the conditions of INGEST_KNOWN (ingest.repository.ts), and is `ready`
 * only when every earlier row of its chat in the group is too, so a chat's messages are inserted
 * in their order even when one of them takes the per-message path. Ready rows are inserted in
 * group order (their seq is their order) with ON CONFLICT DO NOTHING. Nothing is locked: the
 * conversations move at the end of the group's transaction (MOVE_GROUP), so concurrent groups
 * over the same chats write their messages side by side and queue only for that last step.
 * Answers one row per ready message: with `m_id` when inserted (and what only the insert knows:
 * its seq and created_at; its preview; what identifies its conversation), without when already
 * stored. The rest of the message is what the group sent, and the rest of the conversation is what
 * the move answers at the end: neither is sent back (read, parsed and dropped, they made up half
 * of each group's result).
 */
const INGEST_GROUP = `
WITH u AS MATERIALIZED (
  ${jsonRowsSql('$1', GROUP_COLUMNS)}
), k AS (
  SELECT u.*, known.id AS conversation_id,
         bool_and(known.id IS NOT NULL) OVER (PARTITION BY u.workspace_id, u.channel, u.chat_jid ORDER BY u.ord) AS ready
    FROM u LEFT JOIN LATERAL (
      SELECT cv.id FROM conversations cv LEFT JOIN contacts ct ON ct.id = cv.contact_id
       WHERE cv.workspace_id = u.workspace_id AND cv.channel = u.channel AND cv.chat_jid = u.chat_jid AND cv.is_group = u.is_group
         AND (cv.chat_name <> '' OR u.chat_name = '') AND (cv.chat_phone <> '' OR u.chat_phone = '')
         AND (NOT u.has_contact OR (ct.id IS NOT NULL AND (u.phone IS NULL OR ct.phone IS NOT NULL)
                                    AND (u.lid IS NULL OR ct.lid IS NOT NULL) AND (u.bsuid IS NULL OR ct.bsuid IS NOT NULL)
                                    AND (ct.name <> '' OR u.name = '')))
    ) known ON true
), ok AS (
  SELECT * FROM k WHERE ready
), m AS (
  ${insertMessagesSql({
    workspace_id: 'workspace_id',
    conversation_id: 'conversation_id',
    channel: 'channel',
    external_id: 'external_id',
    direction: 'direction',
    sender_jid: 'sender_jid',
    sender_name: 'sender_name',
    message_type: 'message_type',
    content: 'content',
    media_url: 'media_url',
    mime_type: 'mime_type',
    file_name: 'file_name',
    file_size: 'file_size',
    status: 'status',
    timestamp: 'ts',
    seq: null,
  })}
    FROM ok ORDER BY ord
  ON CONFLICT (workspace_id, channel, external_id) DO NOTHING
  RETURNING id, workspace_id, channel, external_id, conversation_id, seq, created_at, ${PREVIEW_COLUMNS}
)
SELECT ok.ord::int AS "ord", m.id AS "m_id", m.seq AS "m_seq", m.created_at AS "m_createdAt", ${previewSql('m')} AS "preview",
       ${conversationIdentityColumns('c', 'c_')}
  FROM ok LEFT JOIN m ON m.workspace_id = ok.workspace_id AND m.channel = ok.channel AND m.external_id = ok.external_id
  LEFT JOIN conversations c ON c.id = m.conversation_id`;

/**
 * Moves each conversation a group wrote to once, from its newest new message (by timestamp, then
 * seq: latestPerConversationSql, as the bulk path) and its count of new inbound ones, which
 * reopen it. The inserted messages come back as JSON rows ($2, jsonRows) of the columns that
 * takes (their previews computed by the group statement), not read again: a generic plan made
 * while `messages` was small would scan it whole once it is not. $1: their conversations. The `IN`
 * subquery locks the rows first, all of them and in id order (its result is hashed or aggregated
 * before any row is updated), so concurrent groups queue instead of deadlocking; locking rows a
 * per-message write of the group locked already costs nothing. Answers the whole rows: the
 * group's callers get them as the group leaves them (the group statement reads only what
 * identifies them, and unlocked, so anything else it read could predate a concurrent assignment).
 */
const MOVE_GROUP = `
WITH m AS MATERIALIZED (
  ${jsonRowsSql('$2', [
    ['conversation_id', 'uuid'],
    ['timestamp', 'timestamptz'],
    ['seq', 'bigint'],
    ['preview', 'text'],
    ['direction', 'text'],
  ])}
), ${latestPerConversationSql('m', 'm.preview')}
UPDATE conversations cv SET
    ${moveLastMessageSql('l', 'l.preview')},
    unread_count = cv.unread_count + n.inbound,
    status = CASE WHEN n.inbound > 0 THEN 'open' ELSE cv.status END,
    updated_at = now()
  FROM latest l JOIN counts n ON n.conversation_id = l.conversation_id
 WHERE cv.id = l.conversation_id
   AND cv.id IN (SELECT id FROM conversations WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE)
RETURNING ${conversationColumns('cv')}`;

// Repeats of a group: unique-key lookups of the stored messages.
const FIND_GROUP = `
SELECT u.ord::int AS "ord", ${messageColumns('m', 'm_')}, ${conversationColumns('c', 'c_')}
  FROM unnest($1::uuid[], $2::text[], $3::text[]) WITH ORDINALITY AS u(workspace_id, channel, external_id, ord)
  JOIN messages m ON m.workspace_id = u.workspace_id AND m.channel = u.channel AND m.external_id = u.external_id
  JOIN conversations c ON c.id = m.conversation_id`;

/**
 * Locks the group's existing conversations in id order, before the per-message path writes any of
 * them. Concurrent groups touch many of the same conversations; taking their row locks in one
 * order makes the later of two groups wait for the earlier one's commit instead of deadlocking
 * with it.
 */
const LOCK_GROUP = `
SELECT cv.id FROM conversations cv
  JOIN (SELECT DISTINCT * FROM unnest($1::uuid[], $2::text[], $3::text[]) AS k(workspace_id, channel, chat_jid)) k
    ON cv.workspace_id = k.workspace_id AND cv.channel = k.channel AND cv.chat_jid = k.chat_jid
 ORDER BY cv.id
   FOR NO KEY UPDATE OF cv`;

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
    status: message.status,
    error: null,
    timestamp: new Date(message.timestamp.getTime()),
    seq: row.m_seq as string,
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
            ];
          }),
        ),
      ],
      'inbox_ingest_group',
    );
    const outcomes: GroupOutcome[] = group.map(() => ({ state: 'unknown' }));
    for (const row of rows) {
      const index = (row.ord as number) - 1;
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
