import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import { type ConversationEntity, type ConversationStatus, hourOf } from '../entities/conversation.entity.js';
import { conversationColumns } from '../inbox-columns.js';
import type { ConversationCursor, ConversationFilter, ConversationSnapshot } from './conversation-list.query.js';
import { visibleTo } from './conversation-viewer.js';
import { instantOfMicros, microsOf } from '../../../infra/database/sql-micros.js';

/** A listed conversation with its place in the walk: the key it is ordered by (µs, seq). */
export type ListedConversation = ConversationEntity & { keyMicros: string; keySeq: string };

/** A page, and on page 1 (when it is full) the snapshot later pages walk in. */
export interface ConversationPage {
  rows: ListedConversation[];
  snapshot: ConversationSnapshot | null;
}

export interface ConversationCounts {
  status: Record<ConversationStatus, number>;
  mine: number;
  unassigned: number;
  all: number;
  unread: number;
  labels: { labelId: string; count: number }[];
}

const COLUMNS = conversationColumns('c');
const ORDER = 'c.last_message_hour DESC, c.last_message_at DESC, c.last_message_seq DESC, c.id DESC';
// The statement's snapshot, its xmax and in-progress ids by their low 32 bits (what `xmin` holds).
const XID32 = (xid8: string): string => `((${xid8})::text::bigint % 4294967296)`;

// Transaction ids in `xmin` are 32 bits: compared modulo 2^32 (exact within 2^31 transactions).
// Rows written more than an hour before page 1 (`at`: updated_at / created_at) count as seen,
// which also keeps an old frozen row's wrapped-around xmin from matching a new id.
const recent = (alias: string, at: string): string => `${alias}.${at} > ${instantOfMicros('$5')} - interval '1 hour'`;
/** Written by a transaction in progress at page 1 ($10: their ids). */
const inProgress = (alias: string): string => `${alias}.xmin::text::bigint = ANY($10::bigint[])`;
/** Written by a transaction that began after page 1 ($9: page 1's xmax). */
const begunAfter = (alias: string): string => `(${alias}.xmin::text::bigint - $9::bigint + 4294967296) % 4294967296 < 2147483648`;

/**
 * A message with a seq at most asOf that page 1 did not see: its transaction took the seq before
 * a later one committed, and was still in progress at page 1. Only transactions in progress then
 * count: a message updated since (a receipt, an edit, its media) has the updater's xmin, and those
 * began after page 1.
 */
const UNSEEN_MESSAGE = (alias: string): string => `(${recent(alias, 'created_at')} AND ${inProgress(alias)})`;

/**
 * A conversation that such a message moved: its row version is newer than page 1 and its last
 * message is one page 1 did not see. Only rows written since page 1 pay the probe.
 */
const MOVED_UNSEEN = `(${recent('c', 'updated_at')} AND (${inProgress('c')} OR ${begunAfter('c')}) AND EXISTS (
  SELECT 1 FROM messages lm WHERE lm.conversation_id = c.id AND lm.timestamp = c.last_message_at AND lm.seq = c.last_message_seq
     AND ${UNSEEN_MESSAGE('lm')}))`;

/** The filters as SQL over `c`, appending their values to `params` ($1 workspace, $2 viewer). */
function whereOf(filter: ConversationFilter, params: unknown[]): string[] {
  const add = (value: unknown): string => `$${params.push(value)}`;
  const where = ['c.workspace_id = $1', visibleTo('$2')];
  if (filter.status) where.push(`c.status = ${add(filter.status)}`);
  if (filter.assigneeId === null) where.push('c.assignee_id IS NULL');
  else if (filter.assigneeId !== undefined) where.push(`c.assignee_id = ${add(filter.assigneeId)}::uuid`);
  // The GIN index (conversations_label_ids_idx) serves the containment test.
  if (filter.labelId) where.push(`c.label_ids @> ARRAY[${add(filter.labelId)}::uuid]`);
  if (filter.channel) where.push(`c.channel = ${add(filter.channel)}`);
  if (filter.unread !== undefined) where.push(filter.unread ? 'c.unread_count > 0' : 'c.unread_count = 0');
  if (filter.q) {
    // As contacts' `q`: a part of the name (`%`, `_` and `\` taken literally), or the phone's digits.
    const like = add(`%${filter.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
    const digits = add(filter.q.replace(/\D/g, ''));
    where.push(`(c.chat_name ILIKE ${like} OR (${digits} <> '' AND c.chat_phone LIKE '%' || ${digits} || '%'))`);
  }
  return where;
}

/**
 * The conversation list (docs/inbox.md, "Listing"): page 1 newest first by (last message time,
 * its seq, id), read on the index (workspace_id, last_message_hour DESC) with an incremental sort;
 * later pages are a snapshot walk as of the highest message seq page 1 saw.
 */
@Injectable()
export class ConversationListRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * Page 1: the current order. `asOf` (the workspace's highest last_message_seq, in the same
   * snapshot) is read only when the page is full, i.e. when there is a next page to walk to.
   */
  async first(workspaceId: string, viewer: string | null, filter: ConversationFilter, take: number): Promise<ConversationPage> {
    const params: unknown[] = [workspaceId, viewer, take];
    const where = whereOf(filter, params);
    type Row = ListedConversation & { asOf: string | null; asOfMicros: string; xmax: string | null; xip: string | null };
    const rows = await this.sql.query<Row>(
      `WITH page AS (
         SELECT ${COLUMNS}, ${microsOf('c.last_message_at')}::text AS "keyMicros", c.last_message_seq::text AS "keySeq"
           FROM conversations c WHERE ${where.join(' AND ')}
          ORDER BY ${ORDER} LIMIT $3
       )
       SELECT page.*,
              CASE WHEN (SELECT count(*) FROM page) >= $3
                   THEN (SELECT COALESCE(max(a.last_message_seq), 0)::text FROM conversations a WHERE a.workspace_id = $1) END AS "asOf",
              ${microsOf('now()')}::text AS "asOfMicros",
              ${XID32('pg_snapshot_xmax(pg_current_snapshot())')}::text AS xmax,
              array_to_string(ARRAY(SELECT ${XID32('x')} FROM pg_snapshot_xip(pg_current_snapshot()) AS x), '.') AS xip
         FROM page ORDER BY page."lastMessageAt" DESC, page."lastMessageSeq" DESC, page.id DESC`,
      params,
    );
    const head = rows[0];
    const snapshot =
      head?.asOf != null && head.xmax != null
        ? { asOf: head.asOf, asOfMicros: head.asOfMicros, xmax: head.xmax, xip: head.xip ? head.xip.split('.') : [] }
        : null;
    return { rows: rows.map(strip), snapshot };
  }

  /**
   * A later page: the conversations after `cursor` in the order as of `cursor.asOf`. Rows whose
   * last message is at most asOf have not moved since page 1: their current key is the key they
   * had, and they come off the list index in order. The rows that moved since (a new message,
   * seq > asOf) are few; each is placed by its latest message with seq <= asOf (one probe of the
   * messages index (conversation_id, timestamp DESC, seq DESC)), and one without such a message is
   * left out unless it existed, empty, at page 1 (then its key is its creation time, seq 0).
   * Each side is LIMITed, the union sorted. Finding the moved rows reads the workspace's
   * conversation rows (last_message_seq is in no index: it changes with every message).
   */
  async after(workspaceId: string, viewer: string | null, filter: ConversationFilter, take: number, cursor: ConversationCursor): Promise<ListedConversation[]> {
    const params: unknown[] = [workspaceId, viewer, take, cursor.asOf, cursor.asOfMicros, cursor.micros, cursor.seq, cursor.id, cursor.xmax, cursor.xip];
    const where = whereOf(filter, params).join(' AND ');
    const at = instantOfMicros('$6');
    const rows = await this.sql.query<ListedConversation>(
      `WITH unmoved AS (
         SELECT ${COLUMNS}, c.last_message_at AS k_at, c.last_message_seq AS k_seq
           FROM conversations c
          WHERE ${where} AND c.last_message_seq <= $4::bigint AND NOT ${MOVED_UNSEEN}
            AND c.last_message_hour <= ${hourOf(at)}
            AND (c.last_message_at, c.last_message_seq, c.id) < (${at}, $7::bigint, $8::uuid)
          ORDER BY ${ORDER} LIMIT $3
       ), moved AS (
         SELECT ${COLUMNS}, COALESCE(p.timestamp, c.created_at) AS k_at, COALESCE(p.seq, 0) AS k_seq
           FROM conversations c
           LEFT JOIN LATERAL (
             SELECT m.timestamp, m.seq FROM messages m
              WHERE m.conversation_id = c.id AND m.seq <= $4::bigint AND NOT ${UNSEEN_MESSAGE('m')}
              ORDER BY m.timestamp DESC, m.seq DESC LIMIT 1
           ) p ON true
          WHERE ${where} AND (c.last_message_seq > $4::bigint OR ${MOVED_UNSEEN})
            AND (p.seq IS NOT NULL OR c.created_at <= ${instantOfMicros('$5')})
            AND (COALESCE(p.timestamp, c.created_at), COALESCE(p.seq, 0), c.id) < (${at}, $7::bigint, $8::uuid)
          ORDER BY COALESCE(p.timestamp, c.created_at) DESC, COALESCE(p.seq, 0) DESC, c.id DESC LIMIT $3
       )
       SELECT page.*, ${microsOf('page.k_at')}::text AS "keyMicros", page.k_seq::text AS "keySeq"
         FROM (SELECT * FROM unmoved UNION ALL SELECT * FROM moved) page
        ORDER BY page.k_at DESC, page.k_seq DESC, page.id DESC LIMIT $3`,
      params,
    );
    return rows.map(strip);
  }

  /**
   * The figures beside the list: per status, and within `status` per assignee, unread and per
   * label, of the conversations `viewer` sees. One pass over the workspace's rows.
   */
  async counts(workspaceId: string, viewer: string | null, userId: string | null, status: ConversationStatus): Promise<ConversationCounts> {
    const [row] = await this.sql.query<Record<string, string>>(
      `SELECT count(*) FILTER (WHERE c.status = 'open')::int AS open,
              count(*) FILTER (WHERE c.status = 'pending')::int AS pending,
              count(*) FILTER (WHERE c.status = 'snoozed')::int AS snoozed,
              count(*) FILTER (WHERE c.status = 'closed')::int AS closed,
              count(*) FILTER (WHERE c.status = $3 AND c.assignee_id = $4::uuid)::int AS mine,
              count(*) FILTER (WHERE c.status = $3 AND c.assignee_id IS NULL)::int AS unassigned,
              count(*) FILTER (WHERE c.status = $3)::int AS "all",
              count(*) FILTER (WHERE c.status = $3 AND c.unread_count > 0)::int AS unread
         FROM conversations c WHERE c.workspace_id = $1 AND ${visibleTo('$2')}`,
      [workspaceId, viewer, status, userId],
    );
    const labels = await this.sql.query<{ labelId: string; count: number }>(
      `SELECT l.id AS "labelId", count(*)::int AS count
         FROM conversations c CROSS JOIN LATERAL unnest(c.label_ids) AS l(id)
        WHERE c.workspace_id = $1 AND ${visibleTo('$2')} AND c.status = $3
        GROUP BY l.id ORDER BY count(*) DESC, l.id`,
      [workspaceId, viewer, status],
    );
    const n = (key: string): number => Number(row?.[key] ?? 0);
    return {
      status: { open: n('open'), pending: n('pending'), snoozed: n('snoozed'), closed: n('closed') },
      mine: n('mine'),
      unassigned: n('unassigned'),
      all: n('all'),
      unread: n('unread'),
      labels,
    };
  }
}

// The walk's own columns stay out of the entity handed on.
function strip<T extends ListedConversation>(
  row: T & { asOf?: unknown; asOfMicros?: unknown; xmax?: unknown; xip?: unknown; k_at?: unknown; k_seq?: unknown },
): ListedConversation {
  const { asOf: _asOf, asOfMicros: _asOfMicros, xmax: _xmax, xip: _xip, k_at: _kAt, k_seq: _kSeq, ...rest } = row;
  return rest as ListedConversation;
}
