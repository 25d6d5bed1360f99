import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type JsonColumn, jsonRows, jsonRowsSql } from '../../../infra/database/json-rows.js';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

/** A delivery to queue: its endpoint (webhook) is whose drain gets woken. */
export interface QueuedDelivery {
  id: string;
  webhookId: string;
  workspaceId: string;
}

/**
 * The event and one delivery per enabled webhook of the workspace subscribed to it, in one
 * statement (the ingest transaction runs it once per message). Nothing is written when no webhook
 * wants the event, and nothing when the (workspace, event, source key) is stored already: the
 * event insert then returns no row, so no delivery is inserted either. A null source key is never
 * a repeat (the caller's transaction writes the event with its source). The webhooks are read once
 * and locked (FOR KEY SHARE: why, below). $6: 'pending' or 'held'. $7, $8: the event's channel and
 * whether it concerns a group (null: neither is known), which the webhooks' filters (`channels`,
 * `include_groups`) must accept (ACCEPTS).
 */
const WRITE = `
WITH w AS MATERIALIZED (
  SELECT id FROM webhooks WHERE workspace_id = $1 AND enabled AND $2 = ANY(events)
     AND ($7::text IS NULL OR channels IS NULL OR $7::text = ANY(channels)) AND (include_groups OR $8::boolean IS NOT TRUE)
     FOR KEY SHARE
), e AS (
  INSERT INTO webhook_events (workspace_id, event, source_key, body, message_id)
  SELECT $1, $2, $3, $4, $5
   WHERE EXISTS (SELECT 1 FROM w)
  ON CONFLICT (workspace_id, event, source_key) DO NOTHING
  RETURNING id
)
INSERT INTO webhook_deliveries (workspace_id, webhook_id, event_id, status)
SELECT $1, w.id, e.id, $6 FROM e, w
RETURNING id, webhook_id AS "webhookId", status`;

// An event's row of WRITE_MANY (jsonRows, in this order): where its body lies in $2, and its length.
const EVENT_COLUMNS: readonly JsonColumn[] = [
  ['workspace_id', 'uuid'],
  ['event', 'text'],
  ['source_key', 'text'],
  ['message_id', 'uuid'],
  ['status', 'text'],
  ['body_at', 'int'],
  ['body_len', 'int'],
  ['channel', 'text'],
  ['is_group', 'boolean'],
];

/**
 * Whether webhook `w` wants event row `u` beyond its type: its `channels` (null: all) hold the
 * event's channel, and a group's event goes only where `include_groups`. An event that names no
 * channel or no group notion (null) passes that filter. Two comparisons of values at hand per
 * pair, no lookup: the statements cost what they did.
 */
const ACCEPTS = `(u.channel IS NULL OR w.channels IS NULL OR u.channel = ANY(w.channels)) AND (w.include_groups OR u.is_group IS NOT TRUE)`;

/**
 * Deliveries have no foreign key to their webhook (migration 1764010700000): the statements that
 * write them read the webhooks they write for with FOR KEY SHARE instead, once per webhook and
 * statement (the key locked the row once per delivery). A webhook being deleted is then either
 * gone for the statement (it waited for the delete), or its delete waits for the statement's
 * transaction and its trigger removes the deliveries written: none outlives its webhook. Only
 * the webhooks subscribed to one of the statement's events are locked (as the key locked only
 * those it checked). Writers never wait for each other on these locks; a workspace's deletion
 * can still deadlock with a writer, as it could with the key, and the ingest retries then
 * (retry.ts).
 *
 * WRITE for many events at once (group commit: the new messages of several workspaces in one
 * transaction): $1 one row per event (jsonRows), each given its id first (time-ordered, as the
 * column's default), which tells the deliveries and the result which event they are of. The
 * bodies come as one binary parameter ($2, every body's bytes one after the other), each cut out
 * by its offset and length: stored byte for byte as the caller wrote them, with no escaping in
 * JavaScript and no parsing in Postgres (a JSON array of the bodies, which Postgres lexed whole
 * and converted back, cost 0.26 ms more per 128 events).
 *
 * `keyed`: some event has a source key, so a repeat must be a no-op (ON CONFLICT). Without keys
 * (the ingest path's events, one per message it inserted) the insert skips the speculative
 * insertion ON CONFLICT needs, which costs an index probe and a WAL record more per event (0.25 ms
 * of a group of 128's 2.7 ms).
 */
const writeManySql = (keyed: boolean): string => `
WITH u AS MATERIALIZED (
  SELECT time_ordered_uuid() AS id, j.* FROM (${jsonRowsSql('$1', EVENT_COLUMNS)}) j
), w AS MATERIALIZED (
  SELECT id, workspace_id, events, channels, include_groups FROM webhooks w
   WHERE enabled AND EXISTS (SELECT 1 FROM u WHERE u.workspace_id = w.workspace_id AND u.event = ANY(w.events) AND ${ACCEPTS})
     FOR KEY SHARE
), e AS (
  INSERT INTO webhook_events (id, workspace_id, event, source_key, body, message_id)
  SELECT u.id, u.workspace_id, u.event, u.source_key, substring($2::bytea FROM u.body_at FOR u.body_len), u.message_id FROM u
   WHERE EXISTS (SELECT 1 FROM w WHERE w.workspace_id = u.workspace_id AND u.event = ANY(w.events) AND ${ACCEPTS})
   ORDER BY u.ord
  ${keyed ? 'ON CONFLICT (workspace_id, event, source_key) DO NOTHING' : ''}
  RETURNING id
), d AS (
  INSERT INTO webhook_deliveries (workspace_id, webhook_id, event_id, status)
  SELECT u.workspace_id, w.id, u.id, u.status
    FROM e JOIN u ON u.id = e.id
    JOIN w ON w.workspace_id = u.workspace_id AND u.event = ANY(w.events) AND ${ACCEPTS}
  RETURNING id, webhook_id, event_id, status
)
SELECT d.id, d.webhook_id AS "webhookId", d.status, u.ord::int AS "ord" FROM d JOIN u ON u.id = d.event_id`;
const WRITE_MANY_KEYED = writeManySql(true);
const WRITE_MANY_KEYLESS = writeManySql(false);

/**
 * The bodies one after the other in one buffer (texts as UTF-8), and each one's length in bytes.
 * Each text is measured and written on its own: texts joined first could pair one's trailing lone
 * surrogate with the next one's leading one, and every later offset would be off.
 */
function packed(bodies: readonly (Buffer | string)[]): { bytes: Buffer; lengths: number[] } {
  const lengths = bodies.map((body) => (typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length));
  const bytes = Buffer.allocUnsafe(lengths.reduce((sum, length) => sum + length, 0));
  let at = 0;
  bodies.forEach((body, index) => {
    if (typeof body === 'string') bytes.write(body, at, 'utf8');
    else body.copy(bytes, at);
    at += lengths[index]!;
  });
  return { bytes, lengths };
}

/** An event as the statements take it (the body aside). `channel`, `isGroup`: null or absent when it names none. */
export interface OutboxRow {
  event: string;
  sourceKey: string | null;
  messageId: string | null;
  held: boolean;
  channel?: 'scan' | 'meta' | null;
  isGroup?: boolean | null;
}

@Injectable()
export class OutboxRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  async write(workspaceId: string, tx: SqlExecutor, event: OutboxRow & { body: Buffer }): Promise<{ id: string; webhookId: string; status: string }[]> {
    return tx.query(
      WRITE,
      [workspaceId, event.event, event.sourceKey, event.body, event.messageId, event.held ? 'held' : 'pending', event.channel ?? null, event.isGroup ?? null],
      'webhooks_outbox_write',
    );
  }

  /** `write` for many events (any workspaces) in one statement; `ord` is the event's index + 1. */
  async writeMany(
    tx: SqlExecutor,
    events: readonly (OutboxRow & { workspaceId: string; body: Buffer | string })[],
  ): Promise<{ id: string; webhookId: string; status: string; ord: number }[]> {
    if (events.length === 0) return [];
    const { bytes, lengths } = packed(events.map((e) => e.body));
    let at = 1; // substring() counts from 1
    const rows = events.map((e, index) => {
      const row = [e.workspaceId, e.event, e.sourceKey, e.messageId, e.held ? 'held' : 'pending', at, lengths[index]!, e.channel ?? null, e.isGroup ?? null];
      at += lengths[index]!;
      return row;
    });
    const keyed = events.some((e) => e.sourceKey !== null);
    const [sql, name] = keyed ? [WRITE_MANY_KEYED, 'webhooks_outbox_write_many_keyed'] : [WRITE_MANY_KEYLESS, 'webhooks_outbox_write_many_keyless'];
    return tx.query(sql, [jsonRows(rows), bytes], name);
  }

  /** The webhooks of these deliveries (for queueing deliveries whose writer is another process). */
  async queued(workspaceId: string, ids: string[]): Promise<QueuedDelivery[]> {
    return this.sql.query(
      `SELECT id, webhook_id AS "webhookId", workspace_id AS "workspaceId" FROM webhook_deliveries WHERE workspace_id = $1 AND id = ANY($2::uuid[])`,
      [workspaceId, ids],
    );
  }

  /** The held events of a message, locked until the caller's transaction ends. */
  async heldEvents(workspaceId: string, tx: SqlExecutor, messageId: string, event: string): Promise<{ id: string; body: Buffer }[]> {
    return tx.query(
      `SELECT e.id, e.body FROM webhook_events e
        WHERE e.workspace_id = $1 AND e.message_id = $2 AND e.event = $3
          AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'held')
        FOR UPDATE OF e`,
      [workspaceId, messageId, event],
    );
  }

  /** Gives a held event its final body and makes its held deliveries due now. */
  async release(workspaceId: string, tx: SqlExecutor, eventId: string, body: Buffer): Promise<QueuedDelivery[]> {
    return tx.query(
      `WITH e AS (UPDATE webhook_events SET body = $3, message_id = NULL WHERE workspace_id = $1 AND id = $2 RETURNING id)
       UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = now(), updated_at = now()
         FROM e WHERE d.event_id = e.id AND d.status = 'held'
       RETURNING d.id, d.webhook_id AS "webhookId", d.workspace_id AS "workspaceId"`,
      [workspaceId, eventId, body],
    );
  }

  /** Held deliveries older than `olderThanMs` (their media never settled): due now, as they are. */
  async releaseStale(olderThanMs: number, limit: number): Promise<QueuedDelivery[]> {
    const rows = await this.sql.query<QueuedDelivery>(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), updated_at = now()
        WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'held' AND created_at < now() - make_interval(secs => $1::float8 / 1000)
                      ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, webhook_id AS "webhookId", workspace_id AS "workspaceId"`,
      [olderThanMs, limit],
    );
    return rows;
  }

  /**
   * Endpoints with a pending delivery overdue by more than `graceMs` and claimed by no drain (or
   * whose claim expired): their wake-up may be lost. One row per endpoint, at most `limit`.
   */
  async overdue(graceMs: number, limit: number): Promise<QueuedDelivery[]> {
    // One probe of the endpoint's own index per webhook (there is no index over all pending
    // deliveries: every message would pay its entry), stopping at the first overdue unclaimed one.
    return this.sql.query(
      `SELECT d.id, w.id AS "webhookId", d.workspace_id AS "workspaceId"
         FROM webhooks w CROSS JOIN LATERAL (
           SELECT id, workspace_id FROM webhook_deliveries
            WHERE webhook_id = w.id AND status = 'pending' AND next_attempt_at < now() - make_interval(secs => $1::float8 / 1000)
              AND (claimed_until IS NULL OR claimed_until < now())
            ORDER BY next_attempt_at LIMIT 1) d
        ORDER BY w.id LIMIT $2`,
      [graceMs, limit],
    );
  }

  /**
   * Deletes finished events older than `days` (their deliveries and attempts go with them), `limit`
   * at most, in no particular order: the BRIN index on created_at finds the old page ranges, and
   * the scan stops at `limit`.
   */
  async prune(days: number, limit: number): Promise<number> {
    const count = await this.sql.execute(
      `DELETE FROM webhook_events WHERE id IN (
         SELECT e.id FROM webhook_events e
          WHERE e.created_at < now() - make_interval(days => $1)
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status IN ('pending', 'held'))
          LIMIT $2)`,
      [days, limit],
    );
    return count;
  }
}
