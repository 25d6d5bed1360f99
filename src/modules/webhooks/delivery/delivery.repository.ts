import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ModifyResult } from '../../../infra/database/queryable.js';
import type { AttemptStatus } from '../entities/webhook-attempt.entity.js';
import type { DeliveryStatus } from '../entities/webhook-delivery.entity.js';
import type { SealedSecrets } from '../secret/webhook-secret.repository.js';

/** A delivery with everything an attempt needs: its event's bytes, the endpoint, the sealed secrets. */
export interface DeliveryTarget {
  id: string;
  workspaceId: string;
  webhookId: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  event: string;
  body: Buffer;
  url: string;
  enabled: boolean;
  /** Null when the workspace has no secret yet (the service creates it). */
  secrets: SealedSecrets | null;
}

/** One attempt as recorded. */
export interface AttemptRecord {
  id: string;
  deliveryId: string;
  event: string;
  status: AttemptStatus;
  attempt: number;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  createdAt: Date;
}

export interface AttemptToRecord {
  deliveryId: string;
  workspaceId: string;
  webhookId: string;
  status: AttemptStatus;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  startedAt: Date;
  /** The delivery's status after this attempt; null keeps it (a manual retry that failed). */
  deliveryStatus: DeliveryStatus | null;
  /** When the next attempt is due (a retry); null keeps it. */
  nextAttemptAt: Date | null;
  /** Disable the endpoint with this reason (410 Gone). */
  disable: string | null;
  /** Record only while the delivery is in one of these states (a concurrent change wins). */
  expected: readonly DeliveryStatus[];
}

export const FAILING_TOO_LONG = 'every delivery attempt failed for 3 days';
// The endpoint's streak of failures has lasted 3 days (false while there is none).
const TOO_LONG = `COALESCE(failing_since < now() - interval '3 days', false)`;

const LOAD = `
SELECT d.id, d.workspace_id AS "workspaceId", d.webhook_id AS "webhookId", d.status, d.attempts, d.next_attempt_at AS "nextAttemptAt",
       e.event, e.body, w.url, w.enabled,
       s.secret, CASE WHEN s.previous_expires_at > now() THEN s.previous_secret END AS "previousSecret"
  FROM webhook_deliveries d
  JOIN webhook_events e ON e.id = d.event_id
  JOIN webhooks w ON w.id = d.webhook_id
  LEFT JOIN webhook_secrets s ON s.workspace_id = d.workspace_id
 WHERE d.id = $1 AND d.workspace_id = $2`;

/**
 * One attempt in one statement: the delivery moves on (attempt count, status, next time, last
 * error), the attempt joins the log, and the endpoint's failure streak moves: a success ends
 * it; a failure starts it, and disables the endpoint when it has lasted 3 days (or on 410 Gone).
 * Nothing is written when the delivery is no longer in an expected state. Returns the attempt
 * and whether this attempt disabled the endpoint.
 */
const RECORD = `
WITH d AS (
  UPDATE webhook_deliveries SET attempts = attempts + 1, status = COALESCE($9, status), next_attempt_at = COALESCE($10, next_attempt_at),
         last_error = $6, completed_at = CASE WHEN COALESCE($9, status) IN ('delivered', 'failed') THEN now() END, updated_at = now()
   WHERE id = $1 AND workspace_id = $2 AND status = ANY($13::text[])
  RETURNING id, attempts, event_id
), a AS (
  INSERT INTO webhook_attempts (workspace_id, webhook_id, delivery_id, attempt, status, response_status, error, duration_ms, created_at)
  SELECT $2, $3, d.id, d.attempts, $4, $5, $6, $7, $8 FROM d
  RETURNING id, delivery_id, attempt, created_at
), w AS (
  UPDATE webhooks SET
    failing_since = CASE WHEN $11 THEN NULL ELSE COALESCE(failing_since, $8) END,
    enabled = CASE WHEN $11 THEN enabled ELSE NOT ($12::text IS NOT NULL OR ${TOO_LONG}) END,
    disabled_reason = CASE WHEN $11 THEN disabled_reason WHEN $12::text IS NOT NULL THEN $12
                           WHEN ${TOO_LONG} THEN '${FAILING_TOO_LONG}' ELSE disabled_reason END,
    updated_at = now()
   WHERE id = $3 AND workspace_id = $2 AND EXISTS (SELECT 1 FROM d)
     AND CASE WHEN $11 THEN failing_since IS NOT NULL
              ELSE enabled AND (failing_since IS NULL OR $12::text IS NOT NULL OR ${TOO_LONG}) END
  RETURNING enabled
)
SELECT a.id, a.delivery_id AS "deliveryId", e.event, a.attempt, a.created_at AS "createdAt",
       COALESCE((SELECT NOT enabled FROM w WHERE NOT $11), false) AS "disabled"
  FROM a JOIN d ON d.id = a.delivery_id JOIN webhook_events e ON e.id = d.event_id`;

const ATTEMPT_COLUMNS = `a.id, a.delivery_id AS "deliveryId", e.event, a.status, a.attempt, a.response_status AS "responseStatus",
       a.error, a.duration_ms AS "durationMs", a.created_at AS "createdAt"`;

/** SQL of deliveries and attempts; every method takes the workspace id first. */
@Injectable()
export class DeliveryRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async load(workspaceId: string, deliveryId: string): Promise<DeliveryTarget | null> {
    const rows: (Omit<DeliveryTarget, 'secrets'> & { secret: string | null; previousSecret: string | null })[] = await this.db.query(LOAD, [
      deliveryId,
      workspaceId,
    ]);
    const row = rows[0];
    if (!row) return null;
    const { secret, previousSecret, ...target } = row;
    return { ...target, secrets: secret ? { secret, previousSecret } : null };
  }

  /** Records an attempt (see RECORD); null when the delivery had moved on meanwhile. */
  async record(attempt: AttemptToRecord): Promise<{ record: AttemptRecord; disabled: boolean } | null> {
    const rows: (Pick<AttemptRecord, 'id' | 'deliveryId' | 'event' | 'attempt' | 'createdAt'> & { disabled: boolean })[] = await this.db.query(RECORD, [
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
    ]);
    const row = rows[0];
    if (!row) return null;
    const { disabled, ...rest } = row;
    return {
      record: { ...rest, status: attempt.status, responseStatus: attempt.responseStatus, error: attempt.error, durationMs: attempt.durationMs },
      disabled,
    };
  }

  /** A disabled endpoint receives nothing: its waiting deliveries fail (a replay can resend them). */
  async failWaiting(workspaceId: string, webhookId: string, reason: string): Promise<number> {
    const [, count]: ModifyResult<unknown> = await this.db.query(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = $3, completed_at = now(), updated_at = now()
        WHERE workspace_id = $1 AND webhook_id = $2 AND status IN ('pending', 'held')`,
      [workspaceId, webhookId, reason],
    );
    return count;
  }

  /**
   * A test event, recorded after its one attempt: event, delivery (final at once) and attempt in
   * one statement, so no sweeper ever sees it pending and sends it a second time.
   */
  async recordTest(
    workspaceId: string,
    webhookId: string,
    delivery: { id: string; event: string; body: Buffer },
    attempt: Omit<AttemptToRecord, 'deliveryId' | 'workspaceId' | 'webhookId' | 'deliveryStatus' | 'nextAttemptAt' | 'disable' | 'expected'>,
  ): Promise<AttemptRecord> {
    const delivered = attempt.status === 'delivered';
    const rows: AttemptRecord[] = await this.db.query(
      `WITH e AS (
         INSERT INTO webhook_events (workspace_id, event, source_key, body) VALUES ($1, $4, 'test:' || $3::text, $5) RETURNING id
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
      [workspaceId, webhookId, delivery.id, delivery.event, delivery.body, delivered ? 'delivered' : 'failed', attempt.responseStatus, attempt.error, attempt.durationMs, attempt.startedAt],
    );
    return rows[0]!;
  }

  /** The last `limit` attempts of a webhook, newest first. */
  async attempts(workspaceId: string, webhookId: string, limit: number): Promise<AttemptRecord[]> {
    return this.db.query(
      `SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts a
         JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN webhook_events e ON e.id = d.event_id
        WHERE a.workspace_id = $1 AND a.webhook_id = $2
        ORDER BY a.created_at DESC, a.attempt DESC LIMIT $3`,
      [workspaceId, webhookId, limit],
    );
  }

  /** Whether the delivery belongs to this webhook of this workspace. */
  async belongsTo(workspaceId: string, webhookId: string, deliveryId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM webhook_deliveries WHERE id = $1 AND workspace_id = $2 AND webhook_id = $3`, [
      deliveryId,
      workspaceId,
      webhookId,
    ]);
    return rows.length > 0;
  }

  /** Outbox figures of a workspace: waiting now, and finished within the last `windowHours`. */
  async stats(workspaceId: string, windowHours: number): Promise<{ pending: number; held: number; delivered: number; failed: number; oldestPendingAge: number }> {
    const rows: { pending: number; held: number; delivered: number; failed: number; oldestPendingAge: number }[] = await this.db.query(
      `SELECT count(*) FILTER (WHERE completed_at IS NULL)::int AS pending,
              count(*) FILTER (WHERE status = 'held')::int AS held,
              count(*) FILTER (WHERE status = 'delivered' AND completed_at IS NOT NULL)::int AS delivered,
              count(*) FILTER (WHERE status = 'failed' AND completed_at IS NOT NULL)::int AS failed,
              COALESCE(floor(EXTRACT(EPOCH FROM now() - min(created_at) FILTER (WHERE completed_at IS NULL))), 0)::int AS "oldestPendingAge"
         FROM webhook_deliveries
        WHERE workspace_id = $1 AND (completed_at IS NULL OR completed_at > now() - make_interval(hours => $2))`,
      [workspaceId, windowHours],
    );
    return rows[0]!;
  }
}
