import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiTooManyRequestsResponse } from '@nestjs/swagger';

/**
 * Rate-limit groups of the contract (docs/contract.md#limits) plus the contact form. Routes in one
 * group share one budget per client IP.
 */
export const RATE_LIMIT_GROUPS = {
  /** register, login, reset-password, verify-email, google/confirm */
  auth: { limit: 10 },
  /** forgot-password, resend-verification */
  email: { limit: 5 },
  /** google/start, google/pending */
  google: { limit: 20 },
  /** the website contact form */
  contact: { limit: 3 },
  /** the passkey extension's challenge and assertion (docs/passkey.md) */
  passkey: { limit: 30 },
} as const;

export type RateLimitGroup = keyof typeof RATE_LIMIT_GROUPS;

export const RATE_LIMIT_WINDOW_MS = 60_000;
export const RATE_LIMIT_KEY = 'rate-limit:group';
export const TOO_MANY_ATTEMPTS = 'too many attempts, please wait a minute and try again';

/** Counts every request to the route against `group`'s per-IP budget (sliding minute). */
export const RateLimit = (group: RateLimitGroup): MethodDecorator =>
  applyDecorators(
    SetMetadata(RATE_LIMIT_KEY, group),
    ApiExtension('x-rate-limit', { group, limit: RATE_LIMIT_GROUPS[group].limit, per: 'minute' }),
    ApiTooManyRequestsResponse({ description: `\`${TOO_MANY_ATTEMPTS}\`, with \`Retry-After\` in seconds` }),
  );
