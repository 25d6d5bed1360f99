import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { queryText } from '../../../infra/http/query-text.js';
import type { CreateArticleDto, UpdateArticleDto } from './dto/knowledge.dto.js';
import type { ArticleHitResponse, ArticleResponse } from './dto/knowledge.response.js';
import { type ArticleHit, toArticleHitResponse, toArticleResponse } from './knowledge.mapper.js';
import { KnowledgeRepository } from './knowledge.repository.js';

/** docs/contract.md#limits: 500 newest; docs/content.md#knowledge-articles: a search answers at most 10. */
export const ARTICLE_LIST_CAP = 500;
export const SEARCH_HITS = 10;
/** Longer queries are cut: the first words carry the question, and the query stays cheap. */
export const SEARCH_QUERY_MAX = 500;
export const ANSWER_QUERY_MAX = 1000;
export const ARTICLE_NOT_FOUND = 'knowledge article not found';
export const QUERY_REQUIRED = 'q is required: the words to search for';

@Injectable()
export class KnowledgeService {
  constructor(
    private readonly articles: KnowledgeRepository,
    private readonly config: AppConfig,
  ) {}

  async list(workspaceId: string): Promise<ArticleResponse[]> {
    return (await this.articles.list(workspaceId, ARTICLE_LIST_CAP)).map(toArticleResponse);
  }

  async create(workspaceId: string, dto: CreateArticleDto): Promise<ArticleResponse> {
    return toArticleResponse(await this.articles.insert(workspaceId, dto.title, dto.body));
  }

  async update(workspaceId: string, id: string, dto: UpdateArticleDto): Promise<ArticleResponse> {
    const updated = await this.articles.update(workspaceId, id, { title: dto.title ?? undefined, body: dto.body ?? undefined });
    if (!updated) throw ApiError.notFound(ARTICLE_NOT_FOUND);
    return toArticleResponse(updated);
  }

  async delete(workspaceId: string, id: string): Promise<{ ok: true }> {
    if (!(await this.articles.delete(workspaceId, id))) throw ApiError.notFound(ARTICLE_NOT_FOUND);
    return { ok: true };
  }

  /** `GET /api/knowledge/search?q=`: at most 10, best first; nothing matching is `[]`. */
  async search(workspaceId: string, q: unknown): Promise<ArticleHitResponse[]> {
    const text = queryText(q, 'q', SEARCH_QUERY_MAX);
    if (!text) throw ApiError.badRequest(QUERY_REQUIRED);
    return (await this.articles.search(workspaceId, text, SEARCH_HITS)).map(toArticleHitResponse);
  }

  /**
   * The article that answers a chat message: the best match for any of its words, if its rank
   * reaches `minRank` (default `KNOWLEDGE_ANSWER_MIN_RANK`); else null.
   */
  async answer(workspaceId: string, message: string, minRank = this.config.knowledgeAnswerMinRank): Promise<ArticleHit | null> {
    const text = message.trim().slice(0, ANSWER_QUERY_MAX);
    if (!text) return null;
    const [best] = await this.articles.searchAnyWord(workspaceId, text, 1);
    return best && best.rank >= minRank ? best : null;
  }
}
