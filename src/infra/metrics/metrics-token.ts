import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Whether an `Authorization` header carries `Bearer <METRICS_TOKEN>` (exact word and one space,
 * like API keys). Compared as digests in constant time, so neither the token nor its length
 * leaks through timing. No token configured: everything passes.
 */
export function metricsAuthorized(header: string | string[] | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice('Bearer '.length)), digest(token));
}
