import type { ArticleHitResponse, ArticleResponse } from './dto/knowledge.response.js';
import type { KnowledgeArticleEntity } from './entities/knowledge-article.entity.js';

export type ArticleRow = Omit<KnowledgeArticleEntity, 'search' | 'workspace'>;
export type ArticleHit = Pick<KnowledgeArticleEntity, 'id' | 'title' | 'body'> & { rank: number };

export function toArticleResponse(row: ArticleRow): ArticleResponse {
  return { id: row.id, title: row.title, body: row.body, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

export function toArticleHitResponse(hit: ArticleHit): ArticleHitResponse {
  return { id: hit.id, title: hit.title, body: hit.body, rank: hit.rank };
}
