import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { TemplateEntity } from './entities/template.entity.js';
import type { ProviderTemplate } from './template-provider.port.js';

const COLUMNS = `t.id, t.workspace_id AS "workspaceId", t.name, t.language, t.category, t.body, t.status, t.quality,
  t.provider_id AS "providerId", t.created_at AS "createdAt", t.updated_at AS "updatedAt"`;

export type TemplateFields = Pick<TemplateEntity, 'name' | 'language' | 'category' | 'body'> &
  Partial<Pick<TemplateEntity, 'status' | 'quality' | 'providerId'>>;

/** `conflict`: the workspace has a template with that name and language already. */
export type TemplateWrite = TemplateEntity | 'conflict';

const isUniqueViolation = (error: unknown): boolean => (error as { code?: string } | null)?.code === '23505';

@Injectable()
export class TemplateRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** Newest first (index: workspace_id, created_at). */
  list(workspaceId: string, limit: number): Promise<TemplateEntity[]> {
    return this.sql.query(`SELECT ${COLUMNS} FROM templates t WHERE t.workspace_id = $1 ORDER BY t.created_at DESC, t.id DESC LIMIT $2`, [workspaceId, limit]);
  }

  async find(workspaceId: string, id: string): Promise<TemplateEntity | null> {
    const rows = await this.sql.query<TemplateEntity>(`SELECT ${COLUMNS} FROM templates t WHERE t.workspace_id = $1 AND t.id = $2`, [workspaceId, id]);
    return rows[0] ?? null;
  }

  async exists(workspaceId: string, name: string, language: string): Promise<boolean> {
    const rows = await this.sql.query<unknown>(`SELECT 1 FROM templates WHERE workspace_id = $1 AND name = $2 AND language = $3`, [
      workspaceId,
      name,
      language,
    ]);
    return rows.length > 0;
  }

  async insert(workspaceId: string, fields: TemplateFields): Promise<TemplateWrite> {
    try {
      const rows = await this.sql.query<TemplateEntity>(
        `INSERT INTO templates AS t (workspace_id, name, language, category, body, status, quality, provider_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
        [workspaceId, fields.name, fields.language, fields.category, fields.body, fields.status ?? null, fields.quality ?? null, fields.providerId ?? null],
      );
      return rows[0]!;
    } catch (error) {
      if (isUniqueViolation(error)) return 'conflict';
      throw error;
    }
  }

  /** Changes the fields given; null when the template is not in this workspace. */
  async update(workspaceId: string, id: string, changes: Partial<TemplateFields>): Promise<TemplateWrite | null> {
    try {
      const result = await this.sql.query<TemplateEntity>(
        `UPDATE templates t SET name = COALESCE($3, t.name), language = COALESCE($4, t.language),
                category = COALESCE($5, t.category), body = COALESCE($6, t.body), updated_at = now()
          WHERE t.workspace_id = $1 AND t.id = $2
         RETURNING ${COLUMNS}`,
        [workspaceId, id, changes.name ?? null, changes.language ?? null, changes.category ?? null, changes.body ?? null],
      );
      return result[0] ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return 'conflict';
      throw error;
    }
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.sql.query<unknown>(`DELETE FROM templates WHERE workspace_id = $1 AND id = $2 RETURNING id`, [workspaceId, id]);
    return result.length > 0;
  }

  /**
   * The provider's template, stored: the row with its provider id is updated; otherwise the row
   * with its name and language (a local template made before the number was connected) adopts
   * it; otherwise it is inserted. One statement, so concurrent syncs cannot insert it twice.
   */
  async upsertFromProvider(workspaceId: string, template: ProviderTemplate): Promise<TemplateEntity> {
    const rows = await this.sql.query<TemplateEntity>(
      `WITH by_id AS (
         UPDATE templates t SET name = $3, language = $4, category = $5, body = $6, status = $7, quality = $8, updated_at = now()
          WHERE t.workspace_id = $1 AND t.provider_id = $2
         RETURNING ${COLUMNS}
       ), upserted AS (
         INSERT INTO templates AS t (workspace_id, provider_id, name, language, category, body, status, quality)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE NOT EXISTS (SELECT 1 FROM by_id)
         ON CONFLICT (workspace_id, name, language) DO UPDATE SET provider_id = EXCLUDED.provider_id,
           category = EXCLUDED.category, body = EXCLUDED.body, status = EXCLUDED.status, quality = EXCLUDED.quality, updated_at = now()
         RETURNING ${COLUMNS}
       )
       SELECT * FROM by_id UNION ALL SELECT * FROM upserted`,
      [workspaceId, template.providerId, template.name, template.language, template.category, template.body, template.status, template.quality],
    );
    return rows[0]!;
  }

  /** A status or quality change reported by the provider; null for a template not stored here. */
  async applyProviderUpdate(workspaceId: string, providerId: string, update: { status?: string; quality?: string }): Promise<TemplateEntity | null> {
    const result = await this.sql.query<TemplateEntity>(
      `UPDATE templates t SET status = COALESCE($3, t.status), quality = COALESCE($4, t.quality), updated_at = now()
        WHERE t.workspace_id = $1 AND t.provider_id = $2
       RETURNING ${COLUMNS}`,
      [workspaceId, providerId, update.status ?? null, update.quality ?? null],
    );
    return result[0] ?? null;
  }
}
