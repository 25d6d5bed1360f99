import { ApiError } from '../../../infra/http/api-error.js';
import { isUuid } from '../dto/id.pipe.js';

export const INVALID_CURSOR = 'invalid cursor';

/**
 * Which kind of hit a key belongs to; the third part of the order (after rank and time), so hits of
 * different kinds with the same rank and time still have one total order.
 */
export const HIT_KIND_ORDER = { message: 3, note: 2, contact: 1 } as const;
export type HitKind = keyof typeof HIT_KIND_ORDER;

/**
 * A hit's place in the results' order: rank (descending), then time in microseconds since the
 * epoch (Postgres' precision, so no hit hides between two pages), then kind, then id. A page's
 * cursor is the key of its last hit; the next page holds the hits strictly after it. The rank is
 * ts_rank_cd's real widened to float8, which JSON carries exactly (a double printed by
 * JavaScript reads back as the same double).
 */
export interface SearchKey {
  rank: number;
  micros: string;
  kind: (typeof HIT_KIND_ORDER)[HitKind];
  id: string;
}

/** The earliest instant Postgres stores, in µs since 1970 (as message-cursor.ts). */
const MIN_MICROS = -210_866_803_200_000_000n;
const RANK = /^\d(?:\.\d{1,20})?(?:e-\d{1,3})?$/;

/**
 * A cursor: the last hit's key, and `asOf`, the instant (µs) the first page was read at: later
 * pages look only at what was stored by then, so the window of ranked messages
 * (search.repository.ts, MESSAGE_WINDOW) stays the one the first page ranked.
 */
export interface SearchCursor {
  key: SearchKey;
  asOf: string;
}

export function encodeSearchCursor({ key, asOf }: SearchCursor): string {
  return Buffer.from(`${key.rank}:${key.micros}:${key.kind}:${key.id}:${asOf}`, 'utf8').toString('base64url');
}

/** An opaque cursor back into its key and instant; anything else is 400 `invalid cursor`. */
export function decodeSearchCursor(raw: unknown): SearchCursor {
  if (typeof raw !== 'string' || !/^[A-Za-z0-9_-]{1,240}$/.test(raw)) throw ApiError.badRequest(INVALID_CURSOR);
  const parts = Buffer.from(raw, 'base64url').toString('utf8').split(':');
  if (parts.length !== 5) throw ApiError.badRequest(INVALID_CURSOR);
  const [rank, micros, kind, id, asOf] = parts as [string, string, string, string, string];
  if (!/^\d{1,18}$/.test(asOf)) throw ApiError.badRequest(INVALID_CURSOR);
  if (!RANK.test(rank) || !(Number(rank) >= 0 && Number(rank) <= 1)) throw ApiError.badRequest(INVALID_CURSOR);
  if (!/^-?\d{1,18}$/.test(micros) || BigInt(micros) < MIN_MICROS) throw ApiError.badRequest(INVALID_CURSOR);
  if (kind !== '1' && kind !== '2' && kind !== '3') throw ApiError.badRequest(INVALID_CURSOR);
  if (!isUuid(id)) throw ApiError.badRequest(INVALID_CURSOR);
  return { key: { rank: Number(rank), micros, kind: Number(kind) as SearchKey['kind'], id: id.toLowerCase() }, asOf };
}

/** Orders keys as the results do: the greater key first. */
export function compareKeysDescending(a: SearchKey, b: SearchKey): number {
  if (a.rank !== b.rank) return b.rank - a.rank;
  const am = BigInt(a.micros);
  const bm = BigInt(b.micros);
  if (am !== bm) return bm > am ? 1 : -1;
  if (a.kind !== b.kind) return b.kind - a.kind;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}
