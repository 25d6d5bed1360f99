import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { viewerOf } from '../conversations/conversation-viewer.js';
import { compareKeysDescending, decodeSearchCursor, encodeSearchCursor, HIT_KIND_ORDER, type HitKind, type SearchKey } from './search-cursor.js';
import { type SearchParams, SearchRepository, type SearchRow } from './search.repository.js';
import type { SearchResponse, SearchResultResponse } from './search.response.js';
import { findHighlights, makeSnippet, phoneDigits, PREFIX_MIN_LENGTH, type SearchTerms, type Snippet, toTsquery } from './search-text.js';

export const MAX_QUERY_LENGTH = 200;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 50;
export const SEARCH_TYPES = ['all', 'messages', 'contacts', 'notes'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const Q_REQUIRED = 'q is required';
export const Q_TOO_LONG = `q must be at most ${MAX_QUERY_LENGTH} characters`;
export const Q_TWICE = 'q must be given once, as text';
export const BAD_TYPE = 'type must be all, messages, contacts or notes';
export const BAD_LIMIT = `limit must be an integer between 1 and ${MAX_LIMIT}`;

/**
 * From what estimated share of the workspace's messages matching on, the window of newest matches
 * is read newest first rather than through the GIN index: at 5 % it takes about 20,000 rows read
 * newest first to find MESSAGE_WINDOW matches, while the index would hand over 5 % of the table
 * (50,000 of a million) to be sorted by time (bench/search).
 */
export const RECENT_PATH_SHARE = 0.05;

const KINDS_OF: Record<SearchType, HitKind[]> = {
  all: ['message', 'note', 'contact'],
  messages: ['message'],
  notes: ['note'],
  contacts: ['contact'],
};

function parseQuery(raw: unknown): string {
  if (raw === undefined) throw ApiError.badRequest(Q_REQUIRED);
  if (typeof raw !== 'string') throw ApiError.badRequest(Q_TWICE);
  const q = raw.trim();
  if (!q) throw ApiError.badRequest(Q_REQUIRED);
  if (q.length > MAX_QUERY_LENGTH) throw ApiError.badRequest(Q_TOO_LONG);
  return q;
}

function parseType(raw: unknown): SearchType {
  if (raw === undefined) return 'all';
  if (typeof raw !== 'string' || !(SEARCH_TYPES as readonly string[]).includes(raw)) throw ApiError.badRequest(BAD_TYPE);
  return raw as SearchType;
}

function parseLimit(raw: unknown): number {
  // `?limit=` is not absent: an empty value is as wrong as any other that is not a number.
  if (raw === undefined) return DEFAULT_LIMIT;
  if (typeof raw !== 'string' || !/^\d{1,2}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_LIMIT) throw ApiError.badRequest(BAD_LIMIT);
  return Number(raw);
}

interface Hit {
  kind: HitKind;
  row: SearchRow;
  key: SearchKey;
}

/**
 * Search over what the caller may see: messages (text, captions, file names), contacts (name,
 * phone digits) and private notes, one ranked list paged by the key of its last hit.
 */
@Injectable()
export class SearchService {
  constructor(private readonly search: SearchRepository) {}

  async find(actor: WorkspaceActor, rawQ: unknown, rawType: unknown, rawLimit: unknown, rawCursor: unknown): Promise<SearchResponse> {
    const q = parseQuery(rawQ);
    const type = parseType(rawType);
    const limit = parseLimit(rawLimit);
    const cursor = rawCursor === undefined ? null : decodeSearchCursor(rawCursor);

    const { lexemes, now } = await this.search.lexemes(q);
    const asOf = cursor?.asOf ?? now;
    // The last word may still be being typed (search as you type); a short one would match too much.
    const lastIsPrefix = lexemes.length > 0 && lexemes[lexemes.length - 1]!.length >= PREFIX_MIN_LENGTH;
    const terms: SearchTerms = { lexemes, lastIsPrefix };
    const phone = phoneDigits(q);
    const params: SearchParams = {
      viewer: viewerOf(actor),
      tsquery: lexemes.length > 0 ? toTsquery(terms) : '',
      phone,
      after: cursor?.key ?? null,
      asOf,
      limit: limit + 1,
    };

    const kinds = KINDS_OF[type].filter((kind) => kind === 'contact' || params.tsquery !== '');
    const found = await Promise.all(kinds.map(async (kind) => (await this.rowsOf(kind, actor.workspaceId, params)).map((row) => hitOf(kind, row))));
    const hits = found.flat().sort((a, b) => compareKeysDescending(a.key, b.key));
    const shown = hits.slice(0, limit);
    return {
      results: shown.map((hit) => toResult(hit, terms, phone)),
      next_cursor: hits.length > limit ? encodeSearchCursor({ key: shown[shown.length - 1]!.key, asOf }) : null,
    };
  }

  private async rowsOf(kind: HitKind, workspaceId: string, params: SearchParams): Promise<SearchRow[]> {
    switch (kind) {
      case 'message': {
        const share = await this.search.estimatedShare(workspaceId, params.tsquery);
        return this.search.messages(workspaceId, params, share >= RECENT_PATH_SHARE ? 'recent' : 'index');
      }
      case 'note':
        return this.search.notes(workspaceId, params);
      case 'contact':
        return this.search.contacts(workspaceId, params);
    }
  }
}

function hitOf(kind: HitKind, row: SearchRow): Hit {
  return { kind, row, key: { rank: Number(row.rank), micros: row.micros, kind: HIT_KIND_ORDER[kind], id: row.id } };
}

/** The snippet of the text that matched: the first text when it holds a match, else the second. */
function snippetOf(hit: Hit, terms: SearchTerms, phone: string): Snippet {
  const { text, alt } = hit.row;
  const inText = findHighlights(text, terms);
  if (inText.length > 0 || !alt) return makeSnippet(text || alt, inText);
  const inAlt = findHighlights(alt, terms, hit.kind === 'contact' ? phone : '');
  if (inAlt.length > 0 || !text) return makeSnippet(alt, inAlt);
  return makeSnippet(text, []);
}

function toResult(hit: Hit, terms: SearchTerms, phone: string): SearchResultResponse {
  const { row } = hit;
  return {
    type: hit.kind,
    id: row.id,
    conversation_id: row.conversationId,
    contact_id: row.contactId,
    chat_name: row.chatName ?? '',
    ...snippetOf(hit, terms, phone),
    timestamp: new Date(row.timestamp).toISOString(),
    rank: Number(row.rank),
  };
}
