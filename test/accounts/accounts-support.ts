import type { Response } from 'supertest';
import { Clock } from '../../src/modules/auth/clock/clock.js';
import { RateLimiter } from '../../src/modules/auth/rate-limit/rate-limiter.service.js';
import { SESSION_COOKIE } from '../../src/modules/auth/sessions/session-cookie.js';
import { ManualClock } from '../support/manual-clock.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';

export { ManualClock } from '../support/manual-clock.js';

export interface AccountsTestApp extends TestApp {
  clock: ManualClock;
  /** Forgets rate-limit counts, so tests of other rules do not trip over the limits. */
  resetRateLimits: () => void;
}

/** The whole app with a manual clock (plus whatever else `options.customize` overrides). */
export async function createAccountsApp(options: TestAppOptions = {}): Promise<AccountsTestApp> {
  const clock = new ManualClock();
  const more = options.customize ?? ((builder) => builder);
  const t = await createTestApp({ ...options, customize: (builder) => more(builder.overrideProvider(Clock).useValue(clock)) });
  return Object.assign(t, { clock, resetRateLimits: () => t.app.get(RateLimiter).reset() });
}

/** The raw `Set-Cookie` line for `svc_session`, or undefined. */
export function sessionSetCookie(res: Response): string | undefined {
  const header = res.headers['set-cookie'] as unknown as string[] | undefined;
  return header?.find((line) => line.startsWith(`${SESSION_COOKIE}=`));
}

/** `svc_session=<token>` from a sign-in response, for a `Cookie` header. */
export function sessionCookieOf(res: Response): string {
  const line = sessionSetCookie(res);
  if (!line) throw new Error(`no ${SESSION_COOKIE} cookie in response ${res.status} ${JSON.stringify(res.body)}`);
  return line.split(';')[0]!;
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
