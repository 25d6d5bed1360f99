import { Injectable } from '@nestjs/common';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { insertMessagesSql, latestPerConversationSql, moveLastMessageSql, PREVIEW_COLUMNS, quotedIdSql } from '../inbox-columns.js';
import type { NormalizedInbound } from './inbound-message.js';
import { RetryIngest } from './retry.js';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';

/**
 * One statement per chunk: the rows travel as one array per column and are expanded with
 * unnest(), inserted in their array order (their `seq` is their arrival order), joined to their conversations by chat jid, inserted with ON CONFLICT DO NOTHING, and
 * the conversations touched are updated once from what was really inserted (so a re-run of the
 * same history changes nothing).
 *
 * Each new row takes its conversation's next `conversation_seq` (from `last_seq`, moved on by the
 * same update). The caller locked the conversations first (LOCK_CHATS, a statement of its own, so
 * this one's snapshot sees every committed message of them): rows already stored and later copies
 * of a channel id within the chunk are left out of the numbering, so repeats take no number.
 * `planned` is how many rows took one; fewer inserted (a channel id stored meanwhile under
 * another chat) would leave a gap, and the caller runs the batch again.
 */
const INSERT_BATCH = `
WITH u AS (
  SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                       $10::text[], $11::text[], $12::text[], $13::int[], $14::text[], $15::timestamptz[],
                       $17::int[], $18::text[], $19::jsonb[]) WITH ORDINALITY
    AS u(chat_jid, external_id, direction, sender_jid, sender_name, message_type, content,
         media_url, mime_type, file_name, file_size, status, ts, duration_s, quoted_external_id, details, ord)
), conv AS (
  SELECT id, chat_jid, last_seq FROM conversations
   WHERE workspace_id = $1 AND channel = $2 AND chat_jid IN (SELECT DISTINCT chat_jid FROM u)
), f AS (
  SELECT DISTINCT ON (u.external_id) u.*, conv.id AS conversation_id, conv.last_seq
    FROM u JOIN conv ON conv.chat_jid = u.chat_jid
   WHERE NOT EXISTS (SELECT 1 FROM messages s WHERE s.workspace_id = $1 AND s.channel = $2 AND s.external_id = u.external_id)
   ORDER BY u.external_id, u.ord
), n AS (
  SELECT f.*, f.last_seq + row_number() OVER (PARTITION BY f.conversation_id ORDER BY f.ord) AS conversation_seq FROM f
), m AS (
  ${insertMessagesSql({
    workspace_id: '$1',
    conversation_id: 'n.conversation_id',
    channel: '$2',
    external_id: 'n.external_id',
    direction: 'n.direction',
    sender_jid: 'n.sender_jid',
    sender_name: 'n.sender_name',
    message_type: 'n.message_type',
    content: 'n.content',
    media_url: 'n.media_url',
    mime_type: 'n.mime_type',
    file_name: 'n.file_name',
    file_size: 'n.file_size',
    duration_s: 'n.duration_s',
    quoted_external_id: 'n.quoted_external_id',
    // A message quoting one of the same chunk finds no id here (one snapshot): LINK_QUOTES links it.
    quoted_id: quotedIdSql('$1', '$2', 'n.quoted_external_id', 'n.conversation_id'),
    details: 'n.details',
    status: 'n.status',
    timestamp: 'n.ts',
    seq: null,
    conversation_seq: 'n.conversation_seq',
  })}
    FROM n
   ORDER BY n.ord
  ON CONFLICT (workspace_id, channel, external_id) DO NOTHING
  RETURNING id, seq, conversation_seq, conversation_id, direction, timestamp, quoted_id, quoted_external_id, ${PREVIEW_COLUMNS}
), ${latestPerConversationSql('m')}, c AS (
  UPDATE conversations cv SET
    ${moveLastMessageSql('l', 'l.preview')},
    unread_count = cv.unread_count + CASE WHEN $16::boolean THEN k.inbound ELSE 0 END,
    last_seq = GREATEST(cv.last_seq, t.top),
    updated_at = now()
   FROM latest l JOIN counts k ON k.conversation_id = l.conversation_id
   JOIN (SELECT conversation_id, max(conversation_seq) AS top FROM m GROUP BY conversation_id) t ON t.conversation_id = l.conversation_id
  WHERE cv.id = l.conversation_id
  RETURNING cv.id
)
SELECT (SELECT count(*) FROM m)::int AS inserted, (SELECT count(*) FROM n)::int AS planned, (SELECT count(*) FROM c)::int AS conversations,
       ARRAY(SELECT id FROM m WHERE quoted_id IS NULL AND quoted_external_id <> '') AS unlinked`;

/**
 * Links the replies a chunk stored without their quoted message ($2: their ids) to it, where it is
 * stored by now: in the same chunk (which the insert's snapshot did not show), or by a concurrent
 * write. One probe of the unique index per reply; a chunk without such replies skips it. (A reply
 * whose quoted message comes later is linked when read: resolvedQuotedIdSql.)
 */
const LINK_QUOTES = `
UPDATE messages r SET quoted_id = q.id
  FROM messages q
 WHERE r.workspace_id = $1 AND r.id = ANY($2::uuid[]) AND r.quoted_id IS NULL
   AND q.workspace_id = r.workspace_id AND q.channel = r.channel AND q.external_id = r.quoted_external_id
   AND q.conversation_id = r.conversation_id`;

/** Locks a chunk's conversations ($3: its chat jids) in id order, before INSERT_BATCH numbers their messages. */
const LOCK_CHATS = `
SELECT id FROM conversations WHERE workspace_id = $1 AND channel = $2 AND chat_jid = ANY($3::text[]) ORDER BY id FOR NO KEY UPDATE`;

/** SQL of the history (bulk) ingest path; runs on the caller's transaction. */
@Injectable()
export class BatchIngestRepository {
  /** The chat jids of `channel` that have no conversation yet. */
  async missingChats(workspaceId: string, channel: ChannelName, chatJids: string[], tx: SqlExecutor): Promise<string[]> {
    const rows = await tx.query<{ chat_jid: string }>(
      `SELECT j AS chat_jid FROM unnest($3::text[]) j
        WHERE NOT EXISTS (SELECT 1 FROM conversations c WHERE c.workspace_id = $1 AND c.channel = $2 AND c.chat_jid = j)`,
      [workspaceId, channel, chatJids],
    );
    return rows.map((row) => row.chat_jid);
  }

  /** Inserts one chunk (all of one channel, conversations existing); returns what was new. */
  async insertChunk(
    workspaceId: string,
    channel: ChannelName,
    rows: NormalizedInbound[],
    countUnread: boolean,
    tx: SqlExecutor,
  ): Promise<{ inserted: number; conversations: number }> {
    const column = <T>(pick: (row: NormalizedInbound) => T): T[] => rows.map(pick);
    // Issued together (pipelined): the insert starts once the locks are held, with a snapshot after them.
    const locked = tx.query(LOCK_CHATS, [workspaceId, channel, [...new Set(column((r) => r.chat.chatJid))]], 'inbox_lock_batch');
    const inserting = tx.query<{ inserted: number; planned: number; conversations: number; unlinked: string[] }>(
      INSERT_BATCH,
      [
        workspaceId,
        channel,
        column((r) => r.chat.chatJid),
        column((r) => r.externalId),
        column((r) => r.direction),
        column((r) => r.senderJid),
        column((r) => r.senderName),
        column((r) => r.type),
        column((r) => r.content),
        column((r) => r.mediaUrl),
        column((r) => r.mimeType),
        column((r) => r.fileName),
        column((r) => r.fileSize),
        column((r) => r.status),
        column((r) => r.timestamp.toISOString()),
        countUnread,
        column((r) => r.durationS),
        column((r) => r.quotedExternalId),
        column((r) => (r.details ? JSON.stringify(r.details) : null)),
      ],
      'inbox_insert_batch',
    );
    const [, result] = await Promise.all([locked, inserting]);
    const { inserted, planned, conversations, unlinked } = result[0]!;
    // A number taken and not used would leave a gap: the whole batch runs again (withRetry).
    if (inserted !== planned) throw new RetryIngest();
    if (unlinked.length > 0) await tx.query(LINK_QUOTES, [workspaceId, unlinked], 'inbox_link_quotes');
    return { inserted, conversations };
  }
}
