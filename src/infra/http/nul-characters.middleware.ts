import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';

export const NUL_REFUSED = 'text must not contain NUL characters (\\u0000)';

/** Whether any string (value or key) inside `value` holds U+0000. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item, depth + 1));
}

type ParsedRequest = IncomingMessage & { body?: unknown; query?: unknown };

/**
 * Postgres text and jsonb cannot store U+0000, so a NUL anywhere in a JSON body or a query string
 * would fail deep inside a query as a 500. Refusing it here, after the body parser, gives every
 * route the same clear 400 without each DTO having to know.
 */
export function nulCharactersMiddleware(req: ParsedRequest, _res: ServerResponse, next: (error?: unknown) => void): void {
  next(containsNul(req.body) || containsNul(req.query) ? ApiError.badRequest(NUL_REFUSED) : undefined);
}
