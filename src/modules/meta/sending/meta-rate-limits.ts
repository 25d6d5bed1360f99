/**
 * The Cloud API's "slow down" refusals of a send, and how long to wait before the next try.
 * These are not failures of the message: the inbox keeps it pending and retries (ChannelBusyError).
 *
 * Sources (public, checked 2026-12):
 * - Meta, "WhatsApp error codes" (throttling errors), developers.facebook.com/documentation/
 *   business-messaging/whatsapp/support/error-codes: 4 "API Too Many Calls" (the app's call rate),
 *   80007 "Rate limit issues" (the WhatsApp Business Account's rate limit), 130429 "Rate limit
 *   hit" (the number's message throughput), 131048 "Spam rate limit hit" (too many earlier messages
 *   blocked or flagged: restricted sending from this number), 131056 "(Business Account, Consumer
 *   Account) pair rate limit hit" (too many messages from this number to the same recipient).
 *   Meta asks integrations to branch on `code`, never on titles.
 * - Meta, "Throughput", developers.facebook.com/documentation/business-messaging/whatsapp/throughput:
 *   80 messages per second per number by default; over it the API answers 130429 "until you are
 *   within your allowed level again"; too many to one user hits the pair rate limit instead.
 * - Pair rate: one message every 6 seconds from a business number to one WhatsApp user (bursts
 *   borrow from later quota), error 131056 until the pair is back within it (Meta's pair rate
 *   limits documentation, as restated by dualhook.com/docs/capacity-quality-limits and
 *   learn.doubletick.io "Understanding WhatsApp Error Code 131056").
 *
 * The gateway does not know how often a message was tried: `baseMs` is the first wait, and the
 * outbound queue multiplies it by the attempt.
 */

/** 'chat': only this recipient is held (the others of the number go on); 'number': every send of the number. */
export type BusyScope = 'chat' | 'number';

export interface BusyRule {
  scope: BusyScope;
  /** Wait before the first retry when the provider gives no hint of its own. */
  baseMs: number;
}

/** Provider `code` → what to hold and for how long. Any other code is a refusal of the message. */
export const META_BUSY_RULES: ReadonlyMap<number, BusyRule> = new Map<number, BusyRule>([
  // Pair rate: the limit is one message per 6 s to one recipient, so waiting less would fail again.
  [131056, { scope: 'chat', baseMs: 6000 }],
  // Throughput (per number, per second) and the account/app call rates: short, they refill quickly.
  [130429, { scope: 'number', baseMs: 2000 }],
  [80007, { scope: 'number', baseMs: 2000 }],
  [4, { scope: 'number', baseMs: 2000 }],
  // Spam rate: the number is restricted for longer (quality), retrying within seconds only adds to it.
  [131048, { scope: 'number', baseMs: 60_000 }],
]);

// A provider hint beyond a day is not a back-off any more; cap it rather than park a message forever.
const MAX_HINT_MS = 24 * 60 * 60 * 1000;

/**
 * The back-off for a refusal with `code`, or null when the code is not a rate limit. The
 * provider's own hint (`Retry-After` of the answer) wins over the table when it gave one.
 */
export function busyBackoff(code: number | undefined, hintMs?: number): { scope: BusyScope; retryAfterMs: number } | null {
  const rule = code === undefined ? undefined : META_BUSY_RULES.get(code);
  if (!rule) return null;
  const hinted = hintMs !== undefined && Number.isFinite(hintMs) && hintMs > 0;
  return { scope: rule.scope, retryAfterMs: hinted ? Math.min(Math.ceil(hintMs), MAX_HINT_MS) : rule.baseMs };
}
