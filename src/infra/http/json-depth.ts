import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';

/** Deepest nesting of arrays and objects a JSON body may have; no request of the API needs 5. */
export const MAX_JSON_DEPTH = 64;
export const TOO_DEEP = `JSON body nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;
/**
 * Most fields one JSON object of a body may have; no request of the API needs 50. Validation
 * (class-transformer, even while it drops unknown fields) costs the square of an object's field
 * count: 80,000 fields held the event loop 10 s, every request of the process with it.
 */
export const MAX_JSON_FIELDS = 1000;
export const TOO_MANY_FIELDS = `JSON object has too many fields (at most ${MAX_JSON_FIELDS})`;
/** Most fields of all the objects of a body together (about 15 ms of validation at most). */
export const MAX_JSON_BODY_FIELDS = 10_000;
export const TOO_MANY_BODY_FIELDS = `JSON body has too many fields (at most ${MAX_JSON_BODY_FIELDS})`;
export const NOT_UTF8 = 'JSON body must be valid UTF-8';

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * Whether the raw JSON text nests arrays/objects deeper than `depthLimit` ('deep'), has an object
 * with more than `fieldLimit` fields ('wide') or more than `totalLimit` fields in all ('many'),
 * or none of these (null). A byte scan: UTF-8 never uses
 * these ASCII bytes inside a multi-byte character, and brackets and colons inside strings are
 * skipped (with the native `indexOf`, strings being most of a large body); outside strings every
 * field of an object has exactly one colon at that object's level. It runs before JSON.parse,
 * which spends seconds on a few megabytes of `[` and whose result would then overflow the stack
 * of class-transformer (a 500).
 */
export function scanJsonShape(body: Buffer, depthLimit: number, fieldLimit: number, totalLimit = Number.POSITIVE_INFINITY): 'deep' | 'wide' | 'many' | null {
  let depth = 0;
  let total = 0;
  // Fields seen so far in the open object (or array: no colons) at each depth.
  const fields: number[] = [0];
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (byte === QUOTE) {
      i = closingQuote(body, i);
      if (i < 0) return null; // unterminated string: JSON.parse refuses it
    } else if (byte === COLON) {
      if (++fields[depth]! > fieldLimit) return 'wide';
      if (++total > totalLimit) return 'many';
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > depthLimit) return 'deep';
      fields[depth] = 0;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth--;
    }
  }
  return null;
}

/** Whether the raw JSON text nests arrays/objects deeper than `limit` (see scanJsonShape). */
export function nestsDeeperThan(body: Buffer, limit: number): boolean {
  return scanJsonShape(body, limit, Number.POSITIVE_INFINITY) === 'deep';
}

/** Index of the quote closing the string opened at `open`, or -1. */
function closingQuote(body: Buffer, open: number): number {
  let at = body.indexOf(QUOTE, open + 1);
  while (at > 0) {
    let backslashes = 0;
    while (body[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = body.indexOf(QUOTE, at + 1);
  }
  return -1;
}

type RawBodyRequest = IncomingMessage & { rawBody?: Buffer };

/**
 * The JSON body parser's `verify` step: keeps the raw bytes on `req.rawBody` (for signature
 * checks of provider webhooks) and refuses deep nesting and objects with too many fields with 400
 * before the body is parsed, on every route, whether or not that part sits in a field the route
 * would drop. Bytes that are
 * not UTF-8 are refused too: the decoder would silently turn them into U+FFFD and store that.
 * The parser is mounted through `deferInputRefusals`, so these 400s (and malformed JSON) are
 * answered after the guard chain (deferred-input.ts); nothing is parsed either way.
 */
export function verifyJsonBody(req: RawBodyRequest, _res: unknown, body: Buffer): void {
  req.rawBody = body;
  // Shaped like body-parser's own errors (status, expose, type), which the error filter answers
  // with their message: body-parser wraps whatever `verify` throws into one of those.
  if (!isUtf8(body)) throw Object.assign(new Error(NOT_UTF8), { status: 400, expose: true, type: 'entity.not.utf8' });
  const shape = scanJsonShape(body, MAX_JSON_DEPTH, MAX_JSON_FIELDS, MAX_JSON_BODY_FIELDS);
  if (shape) throw Object.assign(new Error(REFUSED_SHAPE[shape]), { status: 400, expose: true, type: `entity.too.${shape}` });
}

// Not `entity.too.large`: body-parser's own type for 413.
const REFUSED_SHAPE = { deep: TOO_DEEP, wide: TOO_MANY_FIELDS, many: TOO_MANY_BODY_FIELDS } as const;
