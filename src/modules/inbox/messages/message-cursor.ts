import { ApiError } from '../../../infra/http/api-error.js';
import { isUuid } from '../dto/id.pipe.js';

/**
 * Position of a message in a conversation's newest-first order: its timestamp in microseconds
 * since the epoch (Postgres' own precision, so no row can hide between two cursors) and its `seq`
 * (insertion order) as the tie-breaker. Sent as base64url(`<micros>:<seq>`); clients treat it as
 * opaque. Cursors of the earlier format, base64url(`<micros>:<message id>`), are still accepted:
 * `id` then names the message whose seq breaks the tie.
 */
export type MessageCursor = { micros: string; seq: string; id?: undefined } | { micros: string; id: string; seq?: undefined };

export function encodeCursor(cursor: { micros: string; seq: string }): string {
  return Buffer.from(`${cursor.micros}:${cursor.seq}`, 'utf8').toString('base64url');
}

/**
 * The earliest instant Postgres can store (4714-11-24 BC, in µs since 1970): no message can be
 * older, and a cursor below it would make the page query fail ("timestamp out of range"). The
 * other end needs no check: 18 digits reach the year 33658, well inside Postgres' range.
 */
const MIN_CURSOR_MICROS = -210_866_803_200_000_000n;

export function decodeCursor(raw: unknown): MessageCursor {
  if (typeof raw !== 'string' || !/^[A-Za-z0-9_-]{1,120}$/.test(raw)) throw ApiError.badRequest('invalid cursor');
  const [micros, tie, extra] = Buffer.from(raw, 'base64url').toString('utf8').split(':');
  if (extra !== undefined || !micros || !/^-?\d{1,18}$/.test(micros) || tie === undefined) throw ApiError.badRequest('invalid cursor');
  if (BigInt(micros) < MIN_CURSOR_MICROS) throw ApiError.badRequest('invalid cursor');
  // seq is a positive bigint: at most 19 digits, and below 2^63.
  if (/^\d{1,19}$/.test(tie) && BigInt(tie) <= 9_223_372_036_854_775_807n) return { micros, seq: tie };
  if (isUuid(tie)) return { micros, id: tie.toLowerCase() };
  throw ApiError.badRequest('invalid cursor');
}

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 100;

/** `?limit=`: an integer 1..100, default 50. */
export function parseLimit(raw: unknown): number {
  // `?limit=` is not absent: an empty value is as wrong as any other that is not a number.
  if (raw === undefined) return DEFAULT_PAGE;
  if (typeof raw !== 'string' || !/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE) {
    throw ApiError.badRequest(`limit must be an integer between 1 and ${MAX_PAGE}`);
  }
  return Number(raw);
}

export const AFTER_SEQ_INVALID = 'after_seq must be a non-negative integer';
export const AFTER_SEQ_WITH_BEFORE = 'after_seq cannot be combined with before: after_seq pages oldest first, before newest first';
/** The largest `after_seq` taken (15 digits: exact as a JSON number, far above any conversation's count). */
export const MAX_AFTER_SEQ = 999_999_999_999_999;

/** `?after_seq=`: a non-negative integer (digits only), or undefined when absent. */
export function parseAfterSeq(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw)) throw ApiError.badRequest(AFTER_SEQ_INVALID);
  return Number(raw);
}
