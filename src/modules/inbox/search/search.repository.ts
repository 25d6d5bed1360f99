import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTypeormTransaction, type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import { HIT_KIND_ORDER, type HitKind, type SearchKey } from './search-cursor.js';
import { visibleTo } from '../conversations/conversation-viewer.js';
import { instantOfMicros, microsOf } from '../../../infra/database/sql-micros.js';

/**
 * The indexed expression of messages_search_idx (migration 1764011720000), letter for letter:
 * the planner uses the index only for this exact expression.
 */
export const messageSearchVector = (alias: string): string => `to_tsvector('simple'::regconfig, ${alias}.content || ' ' || ${alias}.file_name)`;

/** One hit as the repository reads it; the service makes its snippet. */
export interface SearchRow {
  id: string;
  conversationId: string | null;
  contactId: string | null;
  chatName: string;
  /** The text the snippet is cut from first (message text or caption, note body, contact name). */
  text: string;
  /** The second text (a message's file name, a contact's phone). */
  alt: string;
  timestamp: Date;
  micros: string;
  rank: number;
}

export interface SearchParams {
  /** The agent's user id, or null for viewers who see everything. */
  viewer: string | null;
  /** A tsquery text, or '' when `q` had no words (then only contacts by phone can match). */
  tsquery: string;
  /** Phone digits to find in contacts' numbers, or ''. */
  phone: string;
  after: SearchKey | null;
  /** Only what was stored by this instant (µs since the epoch; the first page's). */
  asOf: string;
  limit: number;
}

/**
 * How many of the newest matching messages are ranked. Ranking reads each candidate's text again
 * (to_tsvector per row); a common word matches a large share of a workspace's messages, and
 * ranking them all would cost time in proportion (0.7 s for 140,000 matches of a million,
 * bench/search). The newest 1,000 matches are what a search for a common word is after; more
 * words narrow the matches so that older ones enter the window.
 */
export const MESSAGE_WINDOW = 1000;

/** Numbered parameters of one statement, so each query binds only what it uses. */
class Binds {
  readonly values: unknown[] = [];
  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

/** µs since the epoch as a timestamptz, exactly (no float on the way). */

const COMMON = ['id', 'conversationId', 'contactId', 'chatName', 'text', 'alt', 'timestamp', 'rank']
  .map((column) => `hit."${column}"`)
  .concat('hit.micros::text AS micros')
  .join(', ');

/**
 * The common frame of every kind's query: its hits (`inner`, with the columns of SearchRow), the
 * ones strictly after the cursor's key in the results' descending order, the best `limit`.
 */
function page(inner: string, kind: HitKind, p: SearchParams, b: Binds): string {
  const after = p.after
    ? `WHERE (hit.rank, hit.micros, ${HIT_KIND_ORDER[kind]}, hit.id) < (${b.add(p.after.rank, '::float8')}, ${b.add(p.after.micros, '::bigint')}, ${b.add(p.after.kind, '::int')}, ${b.add(p.after.id, '::uuid')})`
    : '';
  return `SELECT ${COMMON} FROM (${inner}) hit ${after} ORDER BY hit.rank DESC, hit.micros DESC, hit.id DESC LIMIT ${b.add(p.limit, '::int')}`;
}

/** Agents see unassigned conversations and their own (as in ConversationRepository); null sees all. */

// ts_rank_cd (cover density: more and closer occurrences rank higher) normalised to 0..1 by
// flag 32 (rank / (rank + 1)), widened to float8 so the cursor carries it exactly.
const rank = (vector: string, query: string): string => `ts_rank_cd(${vector}, ${query}, 32)::float8`;

@Injectable()
export class SearchRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * The lexemes of `q` as to_tsvector('simple') makes them, in the order they were typed, and the
   * database's clock (µs), the `asOf` of a first page.
   */
  async lexemes(q: string): Promise<{ lexemes: string[]; now: string }> {
    const rows = await this.sql.query<{ lexemes: string[]; now: string }>(
      `SELECT ARRAY(SELECT lexeme FROM unnest(to_tsvector('simple'::regconfig, $1::text)) ORDER BY positions[1], lexeme) AS lexemes,
              ${microsOf('clock_timestamp()')}::text AS now`,
      [q],
    );
    return rows[0]!;
  }

  /**
   * The planner's estimate of the share of the workspace's messages that match (0..1), from the
   * statistics ANALYZE keeps of the indexed expression (the frequency of each lexeme): planning
   * only, nothing is read.
   */
  async estimatedShare(workspaceId: string, tsquery: string): Promise<number> {
    type Plan = { 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] };
    const [matching] = await this.sql.query<Plan>(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM messages m WHERE m.workspace_id = $1::uuid AND ${messageSearchVector('m')} @@ $2::tsquery`,
      [workspaceId, tsquery],
    );
    const [all] = await this.sql.query<Plan>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM messages m WHERE m.workspace_id = $1::uuid`, [workspaceId]);
    const rows = (plan: Plan | undefined): number => plan?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0;
    return rows(all) > 0 ? rows(matching) / rows(all) : 0;
  }

  /**
   * Messages (not deleted) whose text, caption or file name holds every word, in conversations
   * the viewer sees, stored by `asOf`: the newest MESSAGE_WINDOW of them, ranked, the page after
   * the cursor's key. Two ways to the same window (the service picks by the estimated share):
   * `index` finds every match through the GIN index and keeps the newest; `recent` reads the
   * workspace's messages newest first (messages_workspace_timestamp_idx) and keeps those that
   * match, which for a common word stops after a few thousand rows where the index would hand
   * over a large share of the table.
   */
  messages(workspaceId: string, p: SearchParams, path: 'index' | 'recent'): Promise<SearchRow[]> {
    const b = new Binds();
    const ws = b.add(workspaceId, '::uuid');
    const viewer = b.add(p.viewer);
    const query = b.add(p.tsquery, '::tsquery');
    const asOf = b.add(p.asOf, '::bigint');
    const vector = messageSearchVector('m');
    const inner = `SELECT m.id, m.conversation_id AS "conversationId", m."contactId", m."chatName", m.content AS text, m.file_name AS alt,
                          m.timestamp, ${microsOf('m.timestamp')} AS micros, ${rank(vector, query)} AS rank
                     FROM (SELECT m.id, m.conversation_id, c.contact_id AS "contactId", COALESCE(NULLIF(c.chat_name, ''), c.chat_phone) AS "chatName",
                                  m.content, m.file_name, m.timestamp
                             FROM messages m JOIN conversations c ON c.id = m.conversation_id
                            WHERE m.workspace_id = ${ws} AND ${vector} @@ ${query} AND m.deleted_at IS NULL
                              AND m.created_at <= ${instantOfMicros(asOf)} AND c.workspace_id = ${ws} AND ${visibleTo(viewer)}
                            ORDER BY m.timestamp DESC, m.id DESC LIMIT ${MESSAGE_WINDOW}) m`;
    const sql = page(inner, 'message', p, b);
    // The planner misjudges how soon a walk newest first meets enough matches (it guesses far
    // too few for several words, and walks for a word in 2 % of the messages, 50,000 rows): for
    // this one statement it is given only the way the service picked. GIN answers only bitmap
    // scans, so without plain index scans it is the GIN index; without bitmap and sequential
    // scans it is the walk.
    const settings = path === 'index' ? ['enable_indexscan'] : ['enable_bitmapscan', 'enable_seqscan'];
    return inTypeormTransaction(this.db, async (tx) => {
      for (const setting of settings) await tx.query(`SET LOCAL ${setting} = off`);
      return tx.query<SearchRow>(sql, b.values);
    });
  }

  /**
   * Private notes whose body holds every word, in conversations the viewer sees. Notes are few
   * beside messages: they are read through the workspace's conversations and matched as they are
   * read, with no index of their own.
   */
  notes(workspaceId: string, p: SearchParams): Promise<SearchRow[]> {
    const b = new Binds();
    const ws = b.add(workspaceId, '::uuid');
    const viewer = b.add(p.viewer);
    const query = b.add(p.tsquery, '::tsquery');
    const vector = `to_tsvector('simple'::regconfig, n.body)`;
    const inner = `SELECT n.id, n.conversation_id AS "conversationId", c.contact_id AS "contactId",
                          COALESCE(NULLIF(c.chat_name, ''), c.chat_phone) AS "chatName", n.body AS text, '' AS alt,
                          n.created_at AS timestamp, ${microsOf('n.created_at')} AS micros, ${rank(vector, query)} AS rank
                     FROM conversations c JOIN conversation_notes n ON n.conversation_id = c.id
                    WHERE c.workspace_id = ${ws} AND n.workspace_id = ${ws} AND ${visibleTo(viewer)} AND ${vector} @@ ${query}
                      AND n.created_at <= ${instantOfMicros(b.add(p.asOf, '::bigint'))}`;
    return this.sql.query(page(inner, 'note', p, b), b.values);
  }

  /**
   * Contacts whose name holds every word, or whose phone number holds the digits (ranked 1, the
   * top: a number is as exact as a search gets). Every member sees every contact (as on
   * GET /api/contacts); `conversationId` is the latest of its conversations the viewer sees, or
   * null. The hit's time is the contact's creation, which no message moves (so a contact keeps its
   * place between pages).
   */
  contacts(workspaceId: string, p: SearchParams): Promise<SearchRow[]> {
    const b = new Binds();
    const ws = b.add(workspaceId, '::uuid');
    const viewer = b.add(p.viewer);
    const vector = `to_tsvector('simple'::regconfig, ct.name)`;
    const query = p.tsquery ? b.add(p.tsquery, '::tsquery') : '';
    const byPhone = p.phone ? `ct.phone LIKE '%' || ${b.add(p.phone, '::text')} || '%'` : '';
    // Only the conditions `q` has: no words, no name match; no phone-like digits, no number match.
    const matches = [query ? `${vector} @@ ${query}` : '', byPhone].filter(Boolean).join(' OR ');
    if (!matches) return Promise.resolve([]);
    const nameRank = query ? rank(vector, query) : '0::float8';
    const rankOf = byPhone ? `CASE WHEN ${byPhone} THEN 1::float8 ELSE ${nameRank} END` : nameRank;
    const inner = `SELECT ct.id, conv.id AS "conversationId", ct.id AS "contactId",
                          COALESCE(NULLIF(ct.name, ''), NULLIF(conv.chat_name, ''), ct.phone, '') AS "chatName",
                          ct.name AS text, COALESCE(ct.phone, '') AS alt, ct.created_at AS timestamp, ${microsOf('ct.created_at')} AS micros, ${rankOf} AS rank
                     FROM contacts ct
                     LEFT JOIN LATERAL (
                       SELECT c.id, c.chat_name FROM conversations c
                        WHERE c.workspace_id = ${ws} AND c.contact_id = ct.id AND ${visibleTo(viewer)}
                        ORDER BY c.last_message_at DESC, c.id DESC LIMIT 1
                     ) conv ON true
                    WHERE ct.workspace_id = ${ws} AND (${matches})`;
    return this.sql.query(page(inner, 'contact', p, b), b.values);
  }
}
