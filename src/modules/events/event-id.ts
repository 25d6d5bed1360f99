/**
 * Event ids are Redis stream entry ids (`<ms>-<seq>`), so the replay stream itself orders them
 * and a client's `Last-Event-ID` is a position in that stream.
 */
const EVENT_ID = /^(\d{1,20})-(\d{1,20})$/;
const U64_MAX = (1n << 64n) - 1n;

export interface EventId {
  ms: bigint;
  seq: bigint;
}

/** The parsed id, or undefined when `raw` is not a stream id Redis could have produced. */
export function parseEventId(raw: string): EventId | undefined {
  const match = EVENT_ID.exec(raw.trim());
  if (!match) return undefined;
  const ms = BigInt(match[1]!);
  const seq = BigInt(match[2]!);
  return ms <= U64_MAX && seq <= U64_MAX ? { ms, seq } : undefined;
}

/** Negative, zero or positive like a comparator; both ids must be valid stream ids. */
export function compareEventIds(a: string, b: string): number {
  const x = parseEventId(a);
  const y = parseEventId(b);
  if (!x || !y) throw new Error(`not a stream id: ${x ? b : a}`);
  if (x.ms !== y.ms) return x.ms < y.ms ? -1 : 1;
  if (x.seq !== y.seq) return x.seq < y.seq ? -1 : 1;
  return 0;
}

/** Sorts before every id Redis generates: a cursor for "nothing seen yet". */
export const ZERO_EVENT_ID = '0-0';
