import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { SubscriptionStatus } from '../../tenants/entities/workspace.entity.js';
import type { ApiKeyEntity, ApiKeyScope } from '../entities/api-key.entity.js';

export interface ActiveKey {
  id: string;
  workspaceId: string;
  scope: ApiKeyScope;
  subscriptionStatus: SubscriptionStatus;
  expiresAt: Date;
}

export interface NewApiKey {
  name: string;
  scope: ApiKeyScope;
  keyHash: string;
  prefix: string;
  createdBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

const FIND_ACTIVE = {
  name: 'api_keys_find_active_by_hash',
  text: `SELECT k.id, k.workspace_id AS "workspaceId", k.scope, w.subscription_status AS "subscriptionStatus",
                k.expires_at AS "expiresAt"
           FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
          WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND k.expires_at > $2`,
};

const COLUMNS = `id, workspace_id AS "workspaceId", name, scope, key_hash AS "keyHash", prefix, created_by AS "createdBy",
  created_at AS "createdAt", expires_at AS "expiresAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

@Injectable()
export class ApiKeyRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * The only lookup that is not scoped by workspace: a key is how the workspace is found. One
   * query returns the key and its workspace's subscription, so the guard chain needs no other.
   * It runs on every API-key request that ApiKeyCache cannot answer (the first use of a key on a
   * process, and every use after a revocation or subscription change anywhere), so it goes
   * straight to the pg pool as a named prepared statement (parsed and planned once per
   * connection, no TypeORM query-runner per call).
   */
  async findActiveByHash(keyHash: string, now: Date): Promise<ActiveKey | null> {
    const pool = (this.db.driver as unknown as { master?: Pool }).master;
    if (!pool) {
      const rows = await this.sql.query<ActiveKey>(FIND_ACTIVE.text, [keyHash, now]);
      return rows[0] ?? null;
    }
    const { rows } = await pool.query<ActiveKey>({ ...FIND_ACTIVE, values: [keyHash, now] });
    return rows[0] ?? null;
  }

  async insert(workspaceId: string, key: NewApiKey): Promise<ApiKeyEntity> {
    const rows = await this.sql.query<ApiKeyEntity>(
      `INSERT INTO api_keys (workspace_id, name, scope, key_hash, prefix, created_by, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [workspaceId, key.name, key.scope, key.keyHash, key.prefix, key.createdBy, key.createdAt, key.expiresAt],
    );
    return rows[0]!;
  }

  list(workspaceId: string): Promise<ApiKeyEntity[]> {
    return this.sql.query(`SELECT ${COLUMNS} FROM api_keys WHERE workspace_id = $1 ORDER BY created_at DESC`, [workspaceId]);
  }

  /** Returns false when the key does not exist in this workspace. Revoking twice is harmless. */
  /**
   * `revoked` when this call revoked the key, `already` when it was revoked before, `missing` when
   * the workspace has no such key. The row lock makes two concurrent revocations one `revoked`
   * and one `already`.
   */
  async revoke(workspaceId: string, id: string): Promise<'revoked' | 'already' | 'missing'> {
    const rows = await this.sql.query<{ revoked: boolean }>(
      `WITH target AS (SELECT id, revoked_at FROM api_keys WHERE workspace_id = $1 AND id = $2 FOR UPDATE),
            revoked AS (UPDATE api_keys k SET revoked_at = now() FROM target
                         WHERE k.id = target.id AND target.revoked_at IS NULL RETURNING k.id)
       SELECT EXISTS (SELECT 1 FROM revoked) AS revoked FROM target`,
      [workspaceId, id],
    );
    if (!rows[0]) return 'missing';
    return rows[0].revoked ? 'revoked' : 'already';
  }

  async markUsed(workspaceId: string, id: string, at: Date): Promise<void> {
    await this.sql.query(`UPDATE api_keys SET last_used_at = $3 WHERE workspace_id = $1 AND id = $2`, [workspaceId, id, at]);
  }
}
