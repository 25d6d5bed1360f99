import { Injectable } from '@nestjs/common';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { insertMessagesSql, latestPerConversationSql, moveLastMessageSql, PREVIEW_COLUMNS, quotedIdSql } from '../inbox-columns.js';
import type { NormalizedInbound } from './inbound-message.js';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';

/**
 * One statement per chunk: the rows travel as one array per column and are expanded with
 * unnest(), inserted in their array order (their `seq` is their arrival order), joined to their conversations by chat jid, inserted with ON CONFLICT DO NOTHING, and
 * the conversations touched are updated once from what was really inserted (so a re-run of the
 * same history changes nothing).
 */
const INSERT_BATCH = `
WITH u AS (
  SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                       $10::text[], $11::text[], $12::text[], $13::int[], $14::text[], $15::timestamptz[],
                       $17::int[], $18::text[], $19::jsonb[]) WITH ORDINALITY
    AS u(chat_jid, external_id, direction, sender_jid, sender_name, message_type, content,
         media_url, mime_type, file_name, file_size, status, ts, duration_s, quoted_external_id, details, ord)
), conv AS (
  SELECT id, chat_jid FROM conversations
   WHERE workspace_id = $1 AND channel = $2 AND chat_jid IN (SELECT DISTINCT chat_jid FROM u)
), m AS (
  ${insertMessagesSql({
    workspace_id: '$1',
    conversation_id: 'conv.id',
    channel: '$2',
    external_id: 'u.external_id',
    direction: 'u.direction',
    sender_jid: 'u.sender_jid',
    sender_name: 'u.sender_name',
    message_type: 'u.message_type',
    content: 'u.content',
    media_url: 'u.media_url',
    mime_type: 'u.mime_type',
    file_name: 'u.file_name',
    file_size: 'u.file_size',
    duration_s: 'u.duration_s',
    quoted_external_id: 'u.quoted_external_id',
    // A message quoting one of the same chunk finds no id here (one snapshot): LINK_QUOTES links it.
    quoted_id: quotedIdSql('$1', '$2', 'u.quoted_external_id', 'conv.id'),
    details: 'u.details',
    status: 'u.status',
    timestamp: 'u.ts',
    seq: null,
  })}
    FROM u JOIN conv ON conv.chat_jid = u.chat_jid
   ORDER BY u.ord
  ON CONFLICT (workspace_id, channel, external_id) DO NOTHING
  RETURNING id, seq, conversation_id, direction, timestamp, quoted_id, quoted_external_id, ${PREVIEW_COLUMNS}
), ${latestPerConversationSql('m')}, c AS (
  UPDATE conversations cv SET
    ${moveLastMessageSql('l', 'l.preview')},
    unread_count = cv.unread_count + CASE WHEN $16::boolean THEN k.inbound ELSE 0 END,
    updated_at = now()
   FROM latest l JOIN counts k ON k.conversation_id = l.conversation_id
  WHERE cv.id = l.conversation_id
  RETURNING cv.id
)
SELECT (SELECT count(*) FROM m)::int AS inserted, (SELECT count(*) FROM c)::int AS conversations,
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
    const result = await tx.query<{ inserted: number; conversations: number; unlinked: string[] }>(
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
    const { inserted, conversations, unlinked } = result[0]!;
    if (unlinked.length > 0) await tx.query(LINK_QUOTES, [workspaceId, unlinked], 'inbox_link_quotes');
    return { inserted, conversations };
  }
}
