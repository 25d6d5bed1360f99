import { ApiError } from '../../../infra/http/api-error.js';
import { isUuid } from '../dto/id.pipe.js';

/**
 * Position of a message in a conversation's newest-first order: its timestamp in microseconds
 * since the epoch (Postgres' own precision, so no row can hide between two cursors) and its id
 * as the tie-breaker. Sent as base64url(`<micros>:<id>`); clients treat it as opaque.
 */
export interface MessageCursor {
  micros: string;
  id: string;
}

export function encodeCursor(cursor: MessageCursor): string {
  return Buffer.from(`${cursor.micros}:${cursor.id}`, 'utf8').toString('base64url');
}

/**
 * The earliest instant Postgres can store (4714-11-24 BC, in µs since 1970): no message can be
 * older, and a cursor below it would make the page query fail ("timestamp out of range"). The
 * other end needs no check: 18 digits reach the year 33658, well inside Postgres' range.
 */
const MIN_CURSOR_MICROS = -210_866_803_200_000_000n;

export function decodeCursor(raw: unknown): MessageCursor {
  if (typeof raw !== 'string' || !/^[A-Za-z0-9_-]{1,120}$/.test(raw)) throw ApiError.badRequest('invalid cursor');
  const [micros, id, extra] = Buffer.from(raw, 'base64url').toString('utf8').split(':');
  if (extra !== undefined || !micros || !/^-?\d{1,18}$/.test(micros) || !isUuid(id)) throw ApiError.badRequest('invalid cursor');
  if (BigInt(micros) < MIN_CURSOR_MICROS) throw ApiError.badRequest('invalid cursor');
  return { micros, id: id.toLowerCase() };
}

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 100;

/** `?limit=`: an integer 1..100, default 50. */
export function parseLimit(raw: unknown): number {
  if (raw === undefined || raw === '') return DEFAULT_PAGE;
  if (typeof raw !== 'string' || !/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE) {
    throw ApiError.badRequest(`limit must be an integer between 1 and ${MAX_PAGE}`);
  }
  return Number(raw);
}
