import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import { KNOWLEDGE_SEARCH_CONFIG } from './entities/knowledge-article.entity.js';
import type { ArticleHit, ArticleRow } from './knowledge.mapper.js';

const COLUMNS = `a.id, a.workspace_id AS "workspaceId", a.title, a.body, a.created_at AS "createdAt", a.updated_at AS "updatedAt"`;

/**
 * The rank of every search: `ts_rank` normalised to 0..1 (rank / (rank + 1)), a title word
 * weighing 2.5 times a body word (default weights: A 1.0, B 0.4).
 */
const RANK = 'ts_rank(a.search, query.q, 32)';

/** A query in the search box's syntax: words all present, "quoted phrases", `or`, `-excluded`. */
const WEBSEARCH = `websearch_to_tsquery('${KNOWLEDGE_SEARCH_CONFIG}', $2)`;

/**
 * A chat message as a query: any of its words (normalised and without stop words), so a question
 * phrased in many words still finds the article that shares its key ones; the rank rewards
 * sharing more of them. The `&`s of the parsed query become `|`s; lexemes are quoted by then.
 */
const ANY_WORD = `replace(plainto_tsquery('${KNOWLEDGE_SEARCH_CONFIG}', $2)::text, '&', '|')::tsquery`;

@Injectable()
export class KnowledgeRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** Newest first (index: workspace_id, created_at). */
  list(workspaceId: string, limit: number): Promise<ArticleRow[]> {
    return this.sql.query(`SELECT ${COLUMNS} FROM knowledge_articles a WHERE a.workspace_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT $2`, [
      workspaceId,
      limit,
    ]);
  }

  async insert(workspaceId: string, title: string, body: string): Promise<ArticleRow> {
    const rows = await this.sql.query<ArticleRow>(`INSERT INTO knowledge_articles AS a (workspace_id, title, body) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`, [
      workspaceId,
      title,
      body,
    ]);
    return rows[0]!;
  }

  /** Changes the fields given; null when the article is not in this workspace. */
  async update(workspaceId: string, id: string, changes: { title?: string; body?: string }): Promise<ArticleRow | null> {
    const result = await this.sql.query<ArticleRow>(
      `UPDATE knowledge_articles a SET title = COALESCE($3, a.title), body = COALESCE($4, a.body), updated_at = now()
        WHERE a.workspace_id = $1 AND a.id = $2
       RETURNING ${COLUMNS}`,
      [workspaceId, id, changes.title ?? null, changes.body ?? null],
    );
    return result[0] ?? null;
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.sql.query<unknown>(`DELETE FROM knowledge_articles WHERE workspace_id = $1 AND id = $2 RETURNING id`, [workspaceId, id]);
    return result.length > 0;
  }

  /** Best first; equal ranks: the newer article first. */
  search(workspaceId: string, text: string, limit: number): Promise<ArticleHit[]> {
    return this.ranked(WEBSEARCH, workspaceId, text, limit);
  }

  /** The articles that share any word with a chat message, best first. */
  searchAnyWord(workspaceId: string, text: string, limit: number): Promise<ArticleHit[]> {
    return this.ranked(ANY_WORD, workspaceId, text, limit);
  }

  private ranked(query: string, workspaceId: string, text: string, limit: number): Promise<ArticleHit[]> {
    return this.sql.query(
      `SELECT a.id, a.title, a.body, ${RANK} AS rank
         FROM knowledge_articles a, (SELECT ${query} AS q) AS query
        WHERE a.workspace_id = $1 AND a.search @@ q
        ORDER BY rank DESC, a.created_at DESC, a.id DESC
        LIMIT $3`,
      [workspaceId, text, limit],
    );
  }
}
