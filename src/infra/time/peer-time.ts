// The last instant with a four-digit year: Postgres and ISO 8601 read anything up to it as is
// (JavaScript writes later years as `+275760-…`, which Postgres refuses).
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
// The first one: earlier is year 0 (`0000-…`, which Postgres has not) or negative (`-000001-…`).
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00Z');

/** Whether `date` has a four-digit year (0001–9999): what the statements can pass on as ISO text. */
export const isStorableTime = (date: Date): boolean => date.getTime() >= EARLIEST_MS && date.getTime() <= LATEST_MS + 999;

/**
 * A message's time as a peer gave it (Unix seconds: WhatsApp's `messageTimestamp`, the Cloud
 * API's `timestamp`), or `fallback` (when it arrived) when that is missing, not a number, not
 * positive or beyond year 9999: a message is stored at the time it arrived rather than dropped
 * for an odd clock value.
 */
export function peerTime(seconds: unknown, fallback: Date): Date {
  const value = typeof seconds === 'string' && seconds.trim() !== '' ? Number(seconds) : seconds;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value * 1000 > LATEST_MS) return fallback;
  return new Date(Math.trunc(value * 1000));
}
