import { type JsonColumn, jsonRowsSql } from '../../../infra/database/json-rows.js';
import {
  conversationColumns,
  conversationIdentityColumns,
  insertMessagesSql,
  latestPerConversationSql,
  messageColumns,
  moveLastMessageSql,
  PREVIEW_COLUMNS,
  previewSql,
  quotedIdSql,
} from '../inbox-columns.js';

// The statements of the live path's group commit (group-ingest.repository.ts runs them).

// The group's rows (jsonRows, in this order): the message, its chat and its sender.
export const GROUP_COLUMNS: readonly JsonColumn[] = [
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
  ['duration_s', 'int'],
  ['quoted_external_id', 'text'],
  ['details', 'jsonb'],
];

/**
 * The messages of a group commit (any workspaces, any channels) whose chat is known and needs
 * nothing filled in, in one statement: the rows travel as one JSON parameter (jsonRows), each is
 * matched to its conversation under the conditions of INGEST_KNOWN (ingest.repository.ts), and is `ready`
 * only when every earlier row of its chat in the group is too, so a chat's messages are inserted
 * in their order even when one of them takes the per-message path. Ready rows are inserted in
 * group order (their seq is their order) with ON CONFLICT DO NOTHING.
 *
 * Each new row takes its conversation's next number (`conversation_seq`, from `last_seq`, which
 * the statement moves on at once so the group's per-message writes continue from it). That needs
 * the conversations locked before this statement starts: LOCK_GROUP runs first on the group's
 * transaction (pipelined, no round trip of its own), all of them in id order. Before issue 38
 * nothing was locked here and concurrent groups over the same chats wrote side by side, queueing
 * only for the move at the end; a gap-free counter cannot be shared so (a number taken by a
 * transaction that rolls back would be lost), so such groups now queue from their first
 * statement, and groups over distinct chats still run side by side. Since this statement's
 * snapshot is taken after the lock, it sees every committed message of these conversations:
 * `fresh` leaves repeats out of the numbering. `planned` tells the caller which rows took a
 * number; one of them not inserted (its channel id stored meanwhile under another chat) would
 * leave a gap, so the caller runs the group again (RetryIngest).
 *
 * `fresh` is a scalar subquery (the unique index allows one match) in a MATERIALIZED CTE, not a
 * `NOT EXISTS`: inlined, `r` copied the check into each of its three uses, and Postgres may plan a
 * select-list `NOT EXISTS` as a hashed subplan that reads all of `messages`: a generic plan made
 * while the table was empty (a fresh database, or a truncated one with autovacuum off) kept doing
 * so, three full scans per group (bench:ingest's classic phase fell from ~4,200 to ~1,500 msg/s).
 * A scalar subquery cannot be hashed, and materialized it runs once per row.
 *
 * Answers one row per ready message: with `m_id` when inserted (and what only the insert knows:
 * its seq, conversation_seq and created_at; its preview; what identifies its conversation),
 * without when already stored. The rest of the message is what the group sent, and the rest of the conversation is what
 * the move answers at the end: neither is sent back (read, parsed and dropped, they made up half
 * of each group's result).
 */
export const INGEST_GROUP = `
WITH u AS MATERIALIZED (
  ${jsonRowsSql('$1', GROUP_COLUMNS)}
), k AS (
  SELECT u.*, known.id AS conversation_id, known.last_seq,
         bool_and(known.id IS NOT NULL) OVER (PARTITION BY u.workspace_id, u.channel, u.chat_jid ORDER BY u.ord) AS ready
    FROM u LEFT JOIN LATERAL (
      SELECT cv.id, cv.last_seq FROM conversations cv LEFT JOIN contacts ct ON ct.id = cv.contact_id
       WHERE cv.workspace_id = u.workspace_id AND cv.channel = u.channel AND cv.chat_jid = u.chat_jid AND cv.is_group = u.is_group
         AND (cv.chat_name <> '' OR u.chat_name = '') AND (cv.chat_phone <> '' OR u.chat_phone = '')
         AND (NOT u.has_contact OR (ct.id IS NOT NULL AND (u.phone IS NULL OR ct.phone IS NOT NULL)
                                    AND (u.lid IS NULL OR ct.lid IS NOT NULL) AND (u.bsuid IS NULL OR ct.bsuid IS NOT NULL)
                                    AND (ct.name <> '' OR u.name = '')))
    ) known ON true
), r AS MATERIALIZED (
  SELECT k.*, (SELECT s.id FROM messages s WHERE s.workspace_id = k.workspace_id AND s.channel = k.channel AND s.external_id = k.external_id) IS NULL AS fresh
    FROM k WHERE ready
), ok AS (
  SELECT r.*, CASE WHEN fresh THEN last_seq + count(*) FILTER (WHERE fresh) OVER (PARTITION BY conversation_id ORDER BY ord) END AS conversation_seq
    FROM r
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
    duration_s: 'duration_s',
    quoted_external_id: 'quoted_external_id',
    quoted_id: quotedIdSql('ok.workspace_id', 'ok.channel', 'ok.quoted_external_id', 'ok.conversation_id'),
    details: 'details',
    status: 'status',
    timestamp: 'ts',
    seq: null,
    conversation_seq: 'conversation_seq',
  })}
    FROM ok WHERE fresh ORDER BY ord
  ON CONFLICT (workspace_id, channel, external_id) DO NOTHING
  RETURNING id, workspace_id, channel, external_id, conversation_id, seq, conversation_seq, created_at, quoted_id, ${PREVIEW_COLUMNS}
), counter AS (
  UPDATE conversations cv SET last_seq = n.top
    FROM (SELECT conversation_id, max(conversation_seq) AS top FROM m GROUP BY conversation_id) n
   WHERE cv.id = n.conversation_id
)
SELECT ok.ord::int AS "ord", ok.fresh AS "planned", m.id AS "m_id", m.seq AS "m_seq", m.conversation_seq AS "m_conversationSeq",
       m.created_at AS "m_createdAt", m.quoted_id AS "m_quotedId", ${previewSql('m')} AS "preview",
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
export const MOVE_GROUP = `
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
    snoozed_until = CASE WHEN n.inbound > 0 THEN NULL ELSE cv.snoozed_until END,
    updated_at = now()
  FROM latest l JOIN counts n ON n.conversation_id = l.conversation_id
 WHERE cv.id = l.conversation_id
   AND cv.id IN (SELECT id FROM conversations WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE)
RETURNING ${conversationColumns('cv')}`;

// Repeats of a group: unique-key lookups of the stored messages.
export const FIND_GROUP = `
SELECT u.ord::int AS "ord", ${messageColumns('m', 'm_')}, ${conversationColumns('c', 'c_')}
  FROM unnest($1::uuid[], $2::text[], $3::text[]) WITH ORDINALITY AS u(workspace_id, channel, external_id, ord)
  JOIN messages m ON m.workspace_id = u.workspace_id AND m.channel = u.channel AND m.external_id = u.external_id
  JOIN conversations c ON c.id = m.conversation_id`;

/**
 * Locks the group's existing conversations in id order, before INGEST_GROUP numbers their
 * messages (and so before the per-message path writes any of them). Concurrent groups touch many of the same conversations; taking their row locks in one
 * order makes the later of two groups wait for the earlier one's commit instead of deadlocking
 * with it.
 */
export const LOCK_GROUP = `
SELECT cv.id FROM conversations cv
  JOIN (SELECT DISTINCT * FROM unnest($1::uuid[], $2::text[], $3::text[]) AS k(workspace_id, channel, chat_jid)) k
    ON cv.workspace_id = k.workspace_id AND cv.channel = k.channel AND cv.chat_jid = k.chat_jid
 ORDER BY cv.id
   FOR NO KEY UPDATE OF cv`;
