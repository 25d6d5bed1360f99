/** What one HTTP attempt came to, before judging it. */
export interface AttemptResult {
  /** The response status; null when no response came (network error, timeout, refused address). */
  status: number | null;
  /** Why it failed, in words; null on success. */
  error: string | null;
  /** `Retry-After` of a 429 or 503, in milliseconds. */
  retryAfterMs: number | null;
  /** The address policy refused the endpoint: retrying cannot help. */
  refused: boolean;
}

export type Verdict = { outcome: 'delivered' } | { outcome: 'retrying'; delayMs: number } | { outcome: 'failed'; disable: string | null };

export const GONE_REASON = 'the endpoint answered 410 Gone';
// A receiver cannot park a delivery for longer than a day with Retry-After.
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

/** ±10 % of jitter, so deliveries that failed together do not retry together. */
export const withJitter = (ms: number, random: () => number = Math.random): number => Math.round(ms * (0.9 + 0.2 * random()));

/**
 * The Standard Webhooks retry policy for attempt number `attempt` (1-based) with `scheduleMs`
 * (the waits before retry 1, 2, …): 2xx is delivered; network errors, timeouts, 408, 429 and 5xx
 * are retried after the next wait of the schedule (or after `Retry-After`, when the endpoint
 * sent one) until the schedule is used up; 410 is final and disables the endpoint; any other
 * answer (other 4xx, an unfollowed 3xx) and a refused address are final.
 */
export function judge(result: AttemptResult, attempt: number, scheduleMs: readonly number[]): Verdict {
  const { status } = result;
  if (status !== null && status >= 200 && status < 300) return { outcome: 'delivered' };
  if (status === 410) return { outcome: 'failed', disable: GONE_REASON };
  const transient = !result.refused && (status === null || status === 408 || status === 429 || status >= 500);
  if (!transient || attempt > scheduleMs.length) return { outcome: 'failed', disable: null };
  const wait = result.retryAfterMs ?? withJitter(scheduleMs[attempt - 1]!);
  return { outcome: 'retrying', delayMs: Math.min(wait, MAX_RETRY_AFTER_MS) };
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now = Date.now()): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its day or month ("Wed, 21 Oct 2015 07:28:00 GMT"); without a letter it is
  // no date, though Date.parse reads "-5" as one (long past: "retry now").
  if (!/[A-Za-z]{3}/.test(value)) return null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
