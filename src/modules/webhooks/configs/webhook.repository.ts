import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTypeormTransaction, type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { WebhookEntity, WebhookEventName } from '../entities/webhook.entity.js';
import type { StoredWebhookUrl } from './webhook-url.credentials.js';

export type WebhookRecord = Omit<WebhookEntity, 'workspace'>;

const COLUMNS = `id, workspace_id AS "workspaceId", url, sealed_url AS "sealedUrl", events, enabled, channels, include_groups AS "includeGroups",
  disabled_reason AS "disabledReason",
  failing_since AS "failingSince", created_at AS "createdAt", updated_at AS "updatedAt"`;

export interface WebhookChanges {
  /** The URL as stored (`WebhookUrlCredentials.toStore`): both columns change together. */
  url?: StoredWebhookUrl;
  events?: WebhookEventName[];
  enabled?: boolean;
  /** null: every channel (a PATCH's `channels: null` clears the filter); undefined: unchanged. */
  channels?: ChannelName[] | null;
  includeGroups?: boolean;
}

@Injectable()
export class WebhookRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  list(workspaceId: string): Promise<WebhookRecord[]> {
    return this.sql.query(`SELECT ${COLUMNS} FROM webhooks WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId]);
  }

  async find(workspaceId: string, id: string): Promise<WebhookRecord | null> {
    const rows = await this.sql.query<WebhookRecord>(`SELECT ${COLUMNS} FROM webhooks WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
    return rows[0] ?? null;
  }

  /**
   * Inserts the webhook unless the workspace has `max` already (null then). Creations of one
   * workspace are serialised by a transaction-scoped advisory lock, so two at once cannot both
   * take the last place.
   */
  createWithin(workspaceId: string, max: number, webhook: Required<WebhookChanges>): Promise<WebhookRecord | null> {
    return inTypeormTransaction(this.db, async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks:' || $1, 0))`, [workspaceId]);
      const [{ count }]: { count: number }[] = await tx.query(`SELECT count(*)::int AS count FROM webhooks WHERE workspace_id = $1`, [workspaceId]);
      if (count >= max) return null;
      const rows = await tx.query<WebhookRecord>(
        `INSERT INTO webhooks (workspace_id, url, sealed_url, events, enabled, channels, include_groups) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
        [workspaceId, webhook.url.url, webhook.url.sealedUrl, webhook.events, webhook.enabled, webhook.channels, webhook.includeGroups],
      );
      return rows[0]!;
    });
  }

  /**
   * Changes the fields given. Enabling clears what the service recorded when it disabled the
   * endpoint (reason, failure streak), and so does a new URL; disabling by hand leaves no reason.
   */
  update(workspaceId: string, id: string, changes: WebhookChanges): Promise<WebhookRecord | null> {
    return this.updateIn(this.sql, workspaceId, id, changes);
  }

  /**
   * As `update`, with the changes worked out from the current row (`changesFor`, which may throw
   * to change nothing), read and written under the row's lock: a change at the same time waits,
   * so what `changesFor` saw is still there when its result is written. Null when there is no
   * such webhook.
   */
  updateFrom(workspaceId: string, id: string, changesFor: (current: WebhookRecord) => WebhookChanges): Promise<WebhookRecord | null> {
    return inTypeormTransaction(this.db, async (tx) => {
      const rows = await tx.query<WebhookRecord>(`SELECT ${COLUMNS} FROM webhooks WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [workspaceId, id]);
      return rows[0] ? this.updateIn(tx, workspaceId, id, changesFor(rows[0])) : null;
    });
  }

  private async updateIn(db: SqlExecutor, workspaceId: string, id: string, changes: WebhookChanges): Promise<WebhookRecord | null> {
    const rows = await db.query<WebhookRecord>(
      `UPDATE webhooks SET url = COALESCE($3, url), sealed_url = CASE WHEN $3::text IS NULL THEN sealed_url ELSE $6 END,
              events = COALESCE($4, events), enabled = COALESCE($5, enabled),
              channels = CASE WHEN $7::boolean THEN $8::text[] ELSE channels END, include_groups = COALESCE($9, include_groups),
              disabled_reason = CASE WHEN $5::boolean IS NULL THEN disabled_reason ELSE NULL END,
              failing_since = CASE WHEN $5::boolean OR $3::text IS NOT NULL THEN NULL ELSE failing_since END,
              updated_at = now()
        WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [
        workspaceId,
        id,
        changes.url?.url ?? null,
        changes.events ?? null,
        changes.enabled ?? null,
        changes.url?.sealedUrl ?? null,
        changes.channels !== undefined,
        changes.channels ?? null,
        changes.includeGroups ?? null,
      ],
    );
    return rows[0] ?? null;
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const count = await this.sql.execute(`DELETE FROM webhooks WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
    return count > 0;
  }
}
