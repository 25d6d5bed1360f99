import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';

export const NUL_REFUSED = 'text must not contain NUL characters (\\u0000)';
export const MALFORMED_URL = 'malformed URL encoding';
export const ILL_FORMED_REFUSED = 'text must be well-formed Unicode (no lone surrogates)';

// The JSON body parser refuses deeper nesting (json-depth.ts), and a query string is flat, so a
// deeper walk never happens; the bound only keeps this function safe on its own.
const MAX_WALK_DEPTH = 128;

/** The first problem of a string, or null. */
function problemOf(text: string): string | null {
  if (text.includes('\u0000')) return NUL_REFUSED;
  return text.isWellFormed() ? null : ILL_FORMED_REFUSED;
}

/** The first refused string (value or key) inside `value`, as the text of the 400; null if none. */
function refusedText(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return problemOf(value);
  if (value === null || typeof value !== 'object' || depth > MAX_WALK_DEPTH) return null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = refusedText(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const problem = problemOf(key) ?? refusedText(item, depth + 1);
    if (problem) return problem;
  }
  return null;
}

type ParsedRequest = IncomingMessage & { body?: unknown; query?: unknown };

/**
 * Postgres text and jsonb cannot store U+0000 nor strings that are not well-formed UTF-16 (a lone
 * surrogate, which JSON can spell as `"\ud800"`); both would fail deep inside a query, or sooner in
 * a validator (`decodeURIComponent` in the email check), as a 500. Refusing them here, right after
 * the body parser and before any validation or transformation, gives every route the same clear
 * 400 without each DTO having to know. Mounted through `deferInputRefusals`: the 400 is answered
 * after the guard chain, before any pipe (deferred-input.ts).
 */
export function textInputMiddleware(req: ParsedRequest, _res: ServerResponse, next: (error?: unknown) => void): void {
  const problem = malformedQuery(req.url) ?? refusedText(req.body) ?? refusedText(req.query);
  next(problem ? ApiError.badRequest(problem) : undefined);
}

/**
 * The query string's own encoding, as the path's is checked: a `%` escape that is not one, or
 * escapes that do not spell UTF-8 (`%FF`, `%ED%A0%80`: a lone surrogate's bytes), is 400. Express's
 * parser would keep the first as typed and turn the bytes into U+FFFD, searching for what nobody
 * wrote.
 */
function malformedQuery(url: string | undefined): string | null {
  const start = url?.indexOf('?') ?? -1;
  if (start < 0 || !url!.includes('%', start)) return null;
  try {
    decodeURIComponent(url!.slice(start + 1));
    return null;
  } catch {
    return MALFORMED_URL;
  }
}
