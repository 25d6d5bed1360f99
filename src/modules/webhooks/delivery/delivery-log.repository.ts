import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import { ATTEMPT_COLUMNS } from './delivery.sql.js';
import type { AttemptRecord } from './delivery.types.js';

/** What the API reads of deliveries and attempts: the log, whose a delivery is, the outbox figures. */
@Injectable()
export class DeliveryLogRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** The last `limit` attempts of a webhook, newest first. */
  async attempts(workspaceId: string, webhookId: string, limit: number): Promise<AttemptRecord[]> {
    return this.sql.query(
      `SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts a
         JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN webhook_events e ON e.id = d.event_id
        WHERE a.workspace_id = $1 AND a.webhook_id = $2
        ORDER BY a.created_at DESC, a.attempt DESC LIMIT $3`,
      [workspaceId, webhookId, limit],
    );
  }

  /** Whether the delivery belongs to this webhook of this workspace. */
  async belongsTo(workspaceId: string, webhookId: string, deliveryId: string): Promise<boolean> {
    const rows = await this.sql.query<unknown>(`SELECT 1 FROM webhook_deliveries WHERE id = $1 AND workspace_id = $2 AND webhook_id = $3`, [
      deliveryId,
      workspaceId,
      webhookId,
    ]);
    return rows.length > 0;
  }

  /**
   * Outbox figures of a workspace: waiting now, and finished within the last `windowHours`.
   * Deliveries of `excludedEvent` (test events: probes, not traffic) are left out; the few events
   * of that name come from their unique index, so the figures stay one range of the workspace's
   * deliveries.
   */
  async stats(
    workspaceId: string,
    windowHours: number,
    excludedEvent: string,
  ): Promise<{ pending: number; held: number; delivered: number; failed: number; oldestPendingAge: number }> {
    const rows = await this.sql.query<{ pending: number; held: number; delivered: number; failed: number; oldestPendingAge: number }>(
      `SELECT count(*) FILTER (WHERE completed_at IS NULL)::int AS pending,
              count(*) FILTER (WHERE status = 'held')::int AS held,
              count(*) FILTER (WHERE status = 'delivered' AND completed_at IS NOT NULL)::int AS delivered,
              count(*) FILTER (WHERE status = 'failed' AND completed_at IS NOT NULL)::int AS failed,
              COALESCE(floor(EXTRACT(EPOCH FROM now() - min(created_at) FILTER (WHERE completed_at IS NULL))), 0)::int AS "oldestPendingAge"
         FROM webhook_deliveries
        WHERE workspace_id = $1 AND (completed_at IS NULL OR completed_at > now() - make_interval(hours => $2))
          AND event_id NOT IN (SELECT e.id FROM webhook_events e WHERE e.workspace_id = $1 AND e.event = $3)`,
      [workspaceId, windowHours, excludedEvent],
    );
    return rows[0]!;
  }
}
