import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

/** The sealed secrets of a workspace: the current one and, for a day after a rotation, the previous one. */
export interface SealedSecrets {
  secret: string;
  previousSecret: string | null;
}

// How long the previous secret keeps signing (Standard Webhooks signatures only) after a rotation.
const PREVIOUS_VALID = `interval '24 hours'`;

@Injectable()
export class WebhookSecretRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** Stores a first secret; keeps the existing one if the workspace has one already. */
  async insert(workspaceId: string, sealed: string, tx: SqlExecutor = this.sql): Promise<void> {
    await tx.query(`INSERT INTO webhook_secrets (workspace_id, secret) VALUES ($1, $2) ON CONFLICT (workspace_id) DO NOTHING`, [workspaceId, sealed]);
  }

  async find(workspaceId: string): Promise<SealedSecrets | null> {
    const rows = await this.sql.query<SealedSecrets>(
      `SELECT secret, CASE WHEN previous_expires_at > now() THEN previous_secret END AS "previousSecret"
         FROM webhook_secrets WHERE workspace_id = $1`,
      [workspaceId],
    );
    return rows[0] ?? null;
  }

  /** Replaces the secret, keeping the old one as `previous` for a day; false when there is none. */
  async rotate(workspaceId: string, sealed: string): Promise<boolean> {
    const rows = await this.sql.query<unknown>(
      `UPDATE webhook_secrets SET previous_secret = secret, previous_expires_at = now() + ${PREVIOUS_VALID}, secret = $2, rotated_at = now()
        WHERE workspace_id = $1 RETURNING workspace_id`,
      [workspaceId, sealed],
    );
    return rows.length > 0;
  }
}
