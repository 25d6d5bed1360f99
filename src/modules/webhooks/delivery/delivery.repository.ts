import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import { Coalescer } from '../../../infra/batching/coalescer.js';
import { onConnection } from '../../../infra/database/sql-transaction.js';
import type { SealedSecrets } from '../secret/webhook-secret.repository.js';
import { CLAIM, LOAD, RECORD, RECORD_DELIVERED, UNCLAIM } from './delivery.sql.js';
import type { AttemptRecord, AttemptToRecord, DeliveryTarget } from './delivery.types.js';

// Loads and records of concurrent jobs share a statement: up to BATCH of them, gathered for at
// most BATCH_WINDOW_MS (a delivery waits that long at most; a backlog saves most of its
// per-statement cost, commits included).
const BATCH = 100;
const BATCH_WINDOW_MS = 2;
// Successful attempts are recorded in larger batches: a drain's lanes finish a claimed batch at
// about the same time, concurrent drains add theirs, and every statement has a fixed cost (node
// and Postgres: send, plan, commit) that a delivery need not wait on (a record only ends a claim).
const RECORD_BATCH = 500;
const RECORD_WINDOW_MS = 5;
// Claims of concurrent drains share a statement (those made in the same turn of the event loop,
// as when one group commit wakes many endpoints), up to this many endpoints.
const CLAIMS_AT_ONCE = 100;

// A row of CLAIM, read as an array.
type ClaimedRow = [
  ord: number,
  id: string,
  attempts: number,
  event: string,
  body: Buffer,
  url: string,
  sealedUrl: string | null,
  enabled: boolean,
  failing: boolean,
  secret: string | null,
  previousSecret: string | null,
];

interface ClaimKey {
  workspaceId: string;
  webhookId: string;
  limit: number;
  claimMs: number;
}

/**
 * SQL of the delivery worker: loading and claiming deliveries, recording attempts (a test event's
 * too). What the API reads of them is DeliveryLogRepository's. Every method takes the workspace id first.
 */
@Injectable()
export class DeliveryRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  private readonly loads = new Coalescer<{ workspaceId: string; deliveryId: string }, DeliveryTarget | null>(
    (keys) => this.loadMany(keys),
    BATCH,
    BATCH_WINDOW_MS,
  );
  private readonly claims = new Coalescer<ClaimKey, DeliveryTarget[]>((keys) => this.claimMany(keys), CLAIMS_AT_ONCE, 0);
  private readonly deliveredRecords = new Coalescer<AttemptToRecord, boolean>((attempts) => this.recordDeliveredMany(attempts), RECORD_BATCH, RECORD_WINDOW_MS);

  load(workspaceId: string, deliveryId: string): Promise<DeliveryTarget | null> {
    return this.loads.call({ workspaceId, deliveryId });
  }

  /**
   * Claims up to `limit` due, unclaimed deliveries of the endpoint for `claimMs` (see CLAIM),
   * oldest first; the claims of concurrent drains share one statement.
   */
  claim(workspaceId: string, webhookId: string, limit: number, claimMs: number): Promise<DeliveryTarget[]> {
    return this.claims.call({ workspaceId, webhookId, limit, claimMs });
  }

  private async claimMany(keys: ClaimKey[]): Promise<DeliveryTarget[][]> {
    const rows = await this.arrays<ClaimedRow>(CLAIM, [
      keys.map((key) => key.workspaceId),
      keys.map((key) => key.webhookId),
      keys.map((key) => key.limit),
      Math.max(...keys.map((key) => key.claimMs)),
    ]);
    const claimed: DeliveryTarget[][] = keys.map(() => []);
    // What an endpoint's deliveries share comes once per endpoint: a drain keeps its claimed
    // batch for a while, and a hundred copies of the same strings only made work for the GC.
    let shared = { ord: 0, url: '', sealedUrl: null as string | null, secrets: null as SealedSecrets | null, event: '' };
    for (const [ord, id, attempts, event, body, url, sealedUrl, enabled, failing, secret, previousSecret] of rows) {
      if (shared.ord !== ord) shared = { ord, url, sealedUrl, secrets: secret ? { secret, previousSecret } : null, event };
      const key = keys[ord - 1]!;
      claimed[ord - 1]!.push({
        id,
        workspaceId: key.workspaceId,
        webhookId: key.webhookId,
        status: 'pending',
        attempts,
        event: event === shared.event ? shared.event : event,
        body,
        url: shared.url,
        sealedUrl: shared.sealedUrl,
        enabled,
        failing,
        secrets: shared.secrets,
      });
    }
    return claimed;
  }

  /**
   * A statement on a connection of TypeORM's pool, its rows as arrays: no property names to
   * look up per row and column (the hot statements read thousands of rows a second).
   */
  private async arrays<R extends unknown[]>(sql: string, params: unknown[]): Promise<R[]> {
    const runner = this.db.createQueryRunner();
    const client = (await runner.connect()) as pg.PoolClient;
    try {
      return (await client.query<R>({ text: sql, values: params, rowMode: 'array' })).rows;
    } finally {
      await runner.release();
    }
  }

  /** Ends the claims of deliveries claimed but not sent; returns those still pending (to queue again). */
  async unclaim(workspaceId: string, deliveryIds: string[]): Promise<{ id: string; webhookId: string; workspaceId: string }[]> {
    if (deliveryIds.length === 0) return [];
    return onConnection(this.db, (tx) => tx.query(UNCLAIM, [workspaceId, deliveryIds]));
  }

  private async loadMany(keys: { workspaceId: string; deliveryId: string }[]): Promise<(DeliveryTarget | null)[]> {
    type Row = Omit<DeliveryTarget, 'secrets'> & { secret: string | null; previousSecret: string | null };
    const rows = await onConnection(this.db, (tx) => tx.query<Row>(LOAD, [keys.map((key) => key.deliveryId), keys.map((key) => key.workspaceId)]));
    const byId = new Map(rows.map(({ secret, previousSecret, ...target }) => [target.id, { ...target, secrets: secret ? { secret, previousSecret } : null }]));
    return keys.map((key) => byId.get(key.deliveryId) ?? null);
  }

  /**
   * Records a successful scheduled attempt of a delivery whose endpoint is not failing, batched
   * with those of the same drain and of concurrent drains; false when the delivery had moved on.
   */
  recordDelivered(attempt: AttemptToRecord): Promise<boolean> {
    return this.deliveredRecords.call(attempt);
  }

  private async recordDeliveredMany(attempts: AttemptToRecord[]): Promise<boolean[]> {
    // Array literals built here: node-postgres would quote and escape each element of each
    // array (ids and numbers need neither), which cost more node CPU than the rest of the batch.
    const rows = await this.arrays<[deliveryId: string]>(RECORD_DELIVERED, [
      arrayLiteral(attempts.map((a) => a.deliveryId)),
      arrayLiteral(attempts.map((a) => a.workspaceId)),
      arrayLiteral(attempts.map((a) => a.responseStatus ?? 'NULL')),
      arrayLiteral(attempts.map((a) => a.durationMs)),
      arrayLiteral(attempts.map((a) => a.startedAt.getTime())),
    ]);
    const recorded = new Set(rows.map((row) => row[0]));
    return attempts.map((a) => recorded.has(a.deliveryId));
  }

  /** Records an attempt (see RECORD); null when the delivery had moved on meanwhile. */
  async record(attempt: AttemptToRecord): Promise<{ record: AttemptRecord; disabled: boolean } | null> {
    const params = [
      attempt.deliveryId,
      attempt.workspaceId,
      attempt.webhookId,
      attempt.status,
      attempt.responseStatus,
      attempt.error,
      attempt.durationMs,
      attempt.startedAt,
      attempt.deliveryStatus,
      attempt.nextAttemptAt,
      attempt.status === 'delivered',
      attempt.disable,
      attempt.expected,
    ];
    const rows = await onConnection(this.db, (tx) =>
      tx.query<Pick<AttemptRecord, 'id' | 'deliveryId' | 'event' | 'attempt' | 'createdAt'> & { disabled: boolean }>(RECORD, params),
    );
    const row = rows[0];
    if (!row) return null;
    const { disabled, ...rest } = row;
    return {
      record: { ...rest, status: attempt.status, responseStatus: attempt.responseStatus, error: attempt.error, durationMs: attempt.durationMs },
      disabled,
    };
  }

  /**
   * A disabled endpoint receives nothing: its waiting deliveries fail. Each gets an entry in the
   * log (status failed, the reason as its error, nothing sent: no response, 0 ms, `attempt` the
   * sends made before), so the log never shows an earlier attempt's "retrying" as its last word,
   * and a delivery never sent at all can be found there and sent again once the webhook is back.
   */
  async failWaiting(workspaceId: string, webhookId: string, reason: string): Promise<number> {
    const count = await this.sql.execute(
      `WITH d AS (
         UPDATE webhook_deliveries SET status = 'failed', last_error = $3, completed_at = now(), updated_at = now()
          WHERE workspace_id = $1 AND webhook_id = $2 AND status IN ('pending', 'held')
         RETURNING id, attempts
       )
       INSERT INTO webhook_attempts (workspace_id, webhook_id, delivery_id, attempt, status, response_status, error, duration_ms)
       SELECT $1, $2, d.id, d.attempts, 'failed', NULL, $3, 0 FROM d`,
      [workspaceId, webhookId, reason],
    );
    return count;
  }

  /**
   * A test event, recorded after its one attempt: event, delivery (final at once) and attempt in
   * one statement, so no sweeper ever sees it pending and sends it a second time. Nothing is
   * recorded (null) when the webhook was deleted meanwhile; it is locked as the outbox locks it.
   */
  async recordTest(
    workspaceId: string,
    webhookId: string,
    delivery: { id: string; event: string; body: Buffer },
    attempt: Omit<AttemptToRecord, 'deliveryId' | 'workspaceId' | 'webhookId' | 'deliveryStatus' | 'nextAttemptAt' | 'disable' | 'expected'>,
  ): Promise<AttemptRecord | null> {
    const delivered = attempt.status === 'delivered';
    const rows = await this.sql.query<AttemptRecord>(
      `WITH w AS MATERIALIZED (
         SELECT id FROM webhooks WHERE id = $2 AND workspace_id = $1 FOR KEY SHARE
       ), e AS (
         INSERT INTO webhook_events (workspace_id, event, source_key, body) SELECT $1, $4, 'test:' || $3::text, $5 FROM w RETURNING id
       ), d AS (
         INSERT INTO webhook_deliveries (id, workspace_id, webhook_id, event_id, status, attempts, last_error, completed_at)
         SELECT $3::uuid, $1, $2, e.id, $6, 1, $8, now() FROM e RETURNING id
       ), a AS (
         INSERT INTO webhook_attempts (workspace_id, webhook_id, delivery_id, attempt, status, response_status, error, duration_ms, created_at)
         SELECT $1, $2, d.id, 1, $6, $7, $8, $9, $10 FROM d
         RETURNING id, delivery_id, attempt, status, response_status, error, duration_ms, created_at
       )
       SELECT a.id, a.delivery_id AS "deliveryId", $4 AS event, a.status, a.attempt, a.response_status AS "responseStatus", a.error,
              a.duration_ms AS "durationMs", a.created_at AS "createdAt" FROM a`,
      [
        workspaceId,
        webhookId,
        delivery.id,
        delivery.event,
        delivery.body,
        delivered ? 'delivered' : 'failed',
        attempt.responseStatus,
        attempt.error,
        attempt.durationMs,
        attempt.startedAt,
      ],
    );
    return rows[0] ?? null;
  }
}

/**
 * A Postgres array literal of values that need no quoting: uuids from our own rows, finite
 * numbers, NULL.
 */
function arrayLiteral(values: readonly (string | number)[]): string {
  return `{${values.join(',')}}`;
}
