import { Injectable } from '@nestjs/common';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import { hourOf } from '../entities/conversation.entity.js';
import { conversationColumns, insertMessagesSql, messageColumns, moveLastMessageSql, previewOf, quotedIdSql, unprefix } from '../inbox-columns.js';
import { contactCtes, SPLIT_CONTACT_SQL } from './contact-upsert.sql.js';
import type { ChatIdentity, NormalizedInbound } from './inbound-message.js';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';

/**
 * Upserts the contact and the conversation of a chat (no message): used when a chat must exist
 * before anything is in it (history batches, starting a conversation) and to link a contact that
 * a race left unlinked. Existing conversations are only written when something is filled in.
 * `inserted`: a row version written by INSERT has no xmax, one written by the DO UPDATE branch
 * has this transaction's, so it tells a conversation created here from one that a concurrent
 * transaction created first.
 */
const UPSERT_CHAT = `
WITH ${contactCtes('$12')}
INSERT INTO conversations AS cv (workspace_id, channel, chat_jid, is_group, chat_name, chat_phone, contact_id, last_message_at, last_message_hour)
VALUES ($1, $2, $3, $4, $5, $10, (SELECT id FROM contact), $11, ${hourOf('$11::timestamptz')})
ON CONFLICT (workspace_id, channel, chat_jid) DO UPDATE SET
  contact_id = COALESCE(cv.contact_id, EXCLUDED.contact_id),
  chat_name = CASE WHEN cv.chat_name = '' THEN EXCLUDED.chat_name ELSE cv.chat_name END,
  chat_phone = CASE WHEN cv.chat_phone = '' THEN EXCLUDED.chat_phone ELSE cv.chat_phone END,
  updated_at = now()
WHERE (cv.contact_id IS NULL AND $9::boolean)
   OR (cv.chat_name = '' AND EXCLUDED.chat_name <> '')
   OR (cv.chat_phone = '' AND EXCLUDED.chat_phone <> '')
RETURNING cv.id, cv.contact_id AS "contactId", (cv.xmax = 0) AS "inserted"`;

/**
 * Inserts the message into the conversation `conv` (a CTE of the enclosing statement, with its
 * locked counter `last_seq`) with the insertion order `seq` (an SQL expression) and the next
 * number of the conversation; a repeated channel id inserts nothing, and since the counter moves
 * only with an inserted row (`upd` joins `m`), a repeat takes no number. Parameters as in INGEST_ONE.
 */
const insertMessage = (seq: string): string => `m AS (
  ${insertMessagesSql({
    workspace_id: '$1',
    conversation_id: 'conv.id',
    channel: '$2',
    external_id: '$22',
    direction: '$11',
    sender_jid: '$12',
    sender_name: '$13',
    message_type: '$14',
    content: '$15',
    media_url: '$16',
    mime_type: '$17',
    file_name: '$18',
    file_size: '$19',
    duration_s: '$24',
    quoted_external_id: '$25',
    quoted_id: quotedIdSql('$1', '$2', '$25::text', 'conv.id'),
    details: '$26::jsonb',
    status: '$20',
    timestamp: '$21',
    seq,
    conversation_seq: 'conv.last_seq + 1',
  })} FROM conv
  ON CONFLICT (workspace_id, channel, external_id) DO NOTHING
  RETURNING *
)`;

/**
 * How a new message `m` moves its conversation `cv`: the newest message sets last_message_at and
 * the preview (an older one arriving late does not), inbound counts as unread and reopens it
 * (a snoozed one's wake-up time goes with its status: the customer woke it).
 */
const MOVE_AGGREGATES = `${moveLastMessageSql('m')},
    last_seq = m.conversation_seq,
    unread_count = cv.unread_count + CASE WHEN m.direction = 'inbound' THEN 1 ELSE 0 END,
    status = CASE WHEN m.direction = 'inbound' THEN 'open' ELSE cv.status END,
    snoozed_until = CASE WHEN m.direction = 'inbound' THEN NULL ELSE cv.snoozed_until END`;

/**
 * The whole live ingest in one statement (one round trip, atomic without an explicit
 * transaction): contact, conversation, message, aggregates. A new conversation is inserted with
 * this message's aggregates already applied; an existing one is updated only when the message is
 * new (the newest message sets last_message_at and the preview, an older one arriving late does
 * not; inbound counts as unread and reopens the chat; missing names and contact are filled in).
 * A repeated channel id inserts nothing and returns no row, and writes no contact either (the
 * contact CTEs only write while the message is not stored); so does losing a race this statement
 * cannot see past (a concurrent transaction created the same conversation after its snapshot).
 */
const INGEST_ONE = `
WITH ${contactCtes('$23', 'NOT EXISTS (SELECT 1 FROM messages WHERE workspace_id = $1 AND channel = $2 AND external_id = $22)')},
seq AS (
  SELECT nextval('messages_seq_seq') AS seq
), conv_old AS (
  -- Locked (and, after a wait, read as the lock holder committed it) for the counter last_seq.
  SELECT id, last_seq FROM conversations WHERE workspace_id = $1 AND channel = $2 AND chat_jid = $3 FOR NO KEY UPDATE
), conv_new AS (
  -- Created holding its first message: last_seq 1, unless the channel id is stored already (a
  -- repeat naming another chat, which inserts no message here).
  INSERT INTO conversations (workspace_id, channel, chat_jid, is_group, chat_name, chat_phone, contact_id,
                             last_message_at, last_message_hour, last_message_seq, last_message_preview, unread_count, last_seq)
  SELECT $1, $2, $3, $4, $5, $10, (SELECT id FROM contact), $21, ${hourOf('$21::timestamptz')}, (SELECT seq FROM seq), ${previewOf('$15::text', '$14::text', '$18::text')},
         CASE WHEN $11 = 'inbound' THEN 1 ELSE 0 END,
         CASE WHEN EXISTS (SELECT 1 FROM messages WHERE workspace_id = $1 AND channel = $2 AND external_id = $22) THEN 0 ELSE 1 END
   WHERE NOT EXISTS (SELECT 1 FROM conv_old)
  ON CONFLICT (workspace_id, channel, chat_jid) DO NOTHING
  RETURNING *
), conv AS (
  SELECT id, last_seq FROM conv_old UNION ALL SELECT id, 0::bigint AS last_seq FROM conv_new
), ${insertMessage('(SELECT seq FROM seq)')}, upd AS (
  UPDATE conversations cv SET
    ${MOVE_AGGREGATES},
    contact_id = COALESCE(cv.contact_id, (SELECT id FROM contact)),
    chat_name = CASE WHEN cv.chat_name = '' THEN $5 ELSE cv.chat_name END,
    chat_phone = CASE WHEN cv.chat_phone = '' THEN $10 ELSE cv.chat_phone END,
    updated_at = now()
   FROM m, conv_old
  WHERE cv.id = conv_old.id AND m.conversation_id = cv.id
  RETURNING cv.*
), c AS (
  SELECT * FROM conv_new UNION ALL SELECT * FROM upd
)
SELECT ${messageColumns('m', 'm_')}, ${conversationColumns('c', 'c_')} FROM m JOIN c ON c.id = m.conversation_id`;

/**
 * The common case in one small statement: a known chat whose conversation and contact already
 * hold everything this message could fill in. Inserts the message and moves the aggregates as
 * INGEST_ONE does. Always one row: `known` 0 sends the caller to INGEST_ONE (new chat, or
 * something to fill in); `known` 1 without a message is a repeat. With `known` 0, `splitContact`
 * says that the message names a phone and a LID held by two different contacts (one phone-only,
 * one LID-only): the caller merges them first. It is only evaluated then (two index probes), so
 * the common case pays nothing for it.
 */
const INGEST_KNOWN = `
WITH conv AS (
  SELECT cv.id, cv.last_seq FROM conversations cv LEFT JOIN contacts ct ON ct.id = cv.contact_id
   WHERE cv.workspace_id = $1 AND cv.channel = $2 AND cv.chat_jid = $3 AND cv.is_group = $4::boolean
     AND (cv.chat_name <> '' OR $5::text = '') AND (cv.chat_phone <> '' OR $10::text = '')
     AND (NOT $9::boolean OR (ct.id IS NOT NULL AND ($6::text IS NULL OR ct.phone IS NOT NULL)
                              AND ($7::text IS NULL OR ct.lid IS NOT NULL) AND ($23::text IS NULL OR ct.bsuid IS NOT NULL)
                              AND (ct.name <> '' OR $8::text = '')))
  -- The conversation's counter, locked until the commit so its numbers stay gap-free; after a
  -- wait the row is read as the lock holder committed it. (The update below locked it anyway.)
     FOR NO KEY UPDATE OF cv
), ${insertMessage("nextval('messages_seq_seq')")}, upd AS (
  UPDATE conversations cv SET
    ${MOVE_AGGREGATES},
    updated_at = now()
   FROM m
  WHERE cv.id = m.conversation_id
  RETURNING cv.*
)
SELECT (SELECT count(*) FROM conv)::int AS "known",
       CASE WHEN $9::boolean AND $6::text IS NOT NULL AND $7::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM conv)
            THEN EXISTS (${SPLIT_CONTACT_SQL}) ELSE false END AS "splitContact",
       ${messageColumns('m', 'm_')}, ${conversationColumns('upd', 'c_')}
  FROM (SELECT 1) AS one LEFT JOIN m ON true LEFT JOIN upd ON upd.id = m.conversation_id`;

// Only repeats (and lost races) get here: a unique-key lookup of the stored message.
const FIND_MESSAGE = `
SELECT ${messageColumns('m', 'm_')}, ${conversationColumns('c', 'c_')}
  FROM messages m JOIN conversations c ON c.id = m.conversation_id
 WHERE m.workspace_id = $1 AND m.channel = $2 AND m.external_id = $3`;

export interface StoredMessage {
  created: boolean;
  message: MessageEntity;
  conversation: ConversationEntity;
}

/** `ingest` wrote nothing: the message's person is two contacts, to be merged first (in a transaction). */
export const SPLIT_CONTACT = 'split-contact';

/** SQL of the ingest paths; statements run on the caller's connection, prepared. */
@Injectable()
export class IngestRepository {
  /**
   * Upserts the chat's contact and conversation. Returns false when a contact was expected but not
   * linked (a concurrent transaction inserted the same person first): try again. Otherwise
   * `inserted` tells whether this statement created the conversation (a concurrent transaction
   * that created it first makes this one an update, or nothing).
   */
  async upsertChat(workspaceId: string, chat: ChatIdentity, firstMessageAt: Date, tx: SqlExecutor): Promise<{ inserted: boolean } | false> {
    const row = await this.upsertChatRow(workspaceId, chat, firstMessageAt, tx);
    return row === false ? false : { inserted: row?.inserted ?? false };
  }

  /** As `upsertChat`, with the linked contact id when the row was written (null: not written). */
  async upsertChatRow(
    workspaceId: string,
    chat: ChatIdentity,
    firstMessageAt: Date,
    tx: SqlExecutor,
  ): Promise<{ contactId: string | null; inserted: boolean } | null | false> {
    const rows = await tx.query<{ id: string; contactId: string | null; inserted: boolean }>(
      UPSERT_CHAT,
      [...chatParams(workspaceId, chat), firstMessageAt, chat.contact?.bsuid ?? null],
      'inbox_upsert_chat',
    );
    // No row: the conversation existed and needed nothing filled in, so it has its contact
    // whenever one is expected (a missing one makes the upsert return the row).
    const row = rows[0];
    if (!row) return null;
    return chat.contact !== null && row.contactId === null ? false : { contactId: row.contactId, inserted: row.inserted };
  }

  /**
   * Stores the message and returns it as created, or returns the stored one for a repeat; null
   * when a concurrent insert hid a row from this statement: run it again. SPLIT_CONTACT (nothing
   * written) when the message names a phone and a LID held by two contacts, unless `merged` says
   * the caller has already merged what it could.
   */
  async ingest(
    workspaceId: string,
    message: NormalizedInbound,
    tx: SqlExecutor,
    options: { merged?: boolean } = {},
  ): Promise<StoredMessage | null | typeof SPLIT_CONTACT> {
    const params = [
      ...chatParams(workspaceId, message.chat),
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
      message.timestamp,
      message.externalId,
      message.chat.contact?.bsuid ?? null,
      message.durationS,
      message.quotedExternalId,
      message.details ? JSON.stringify(message.details) : null,
    ];
    const [known] = await tx.query<Record<string, unknown>>(INGEST_KNOWN, params, 'inbox_ingest_known');
    if (known?.m_id) return toStored(known, true);
    if (known?.known === 0) {
      if (known.splitContact === true && !options.merged) return SPLIT_CONTACT;
      const [row] = await tx.query<Record<string, unknown>>(INGEST_ONE, params, 'inbox_ingest_one');
      if (row) return toStored(row, true);
    }
    return this.findStored(workspaceId, message.chat.channel, message.externalId, tx);
  }

  /** The stored message with this channel id (as a repeat), or null. */
  async findStored(workspaceId: string, channel: ChannelName, externalId: string, tx: SqlExecutor): Promise<StoredMessage | null> {
    const stored = await tx.query<Record<string, unknown>>(FIND_MESSAGE, [workspaceId, channel, externalId], 'inbox_find_message');
    return stored[0] ? toStored(stored[0], false) : null;
  }
}

const toStored = (row: Record<string, unknown>, created: boolean): StoredMessage => ({
  created,
  message: unprefix<MessageEntity>(row, 'm_'),
  conversation: unprefix<ConversationEntity>(row, 'c_'),
});

/** $1..$10 of both statements (each binds the contact's BSUID last: $12 and $23). */
function chatParams(workspaceId: string, chat: ChatIdentity): unknown[] {
  const contact = chat.contact;
  return [
    workspaceId,
    chat.channel,
    chat.chatJid,
    chat.isGroup,
    chat.chatName,
    contact?.phone ?? null,
    contact?.lid ?? null,
    contact?.name ?? '',
    contact !== null,
    chat.chatPhone,
  ];
}
