/**
 * SQL spellings of a timestamptz as microseconds since the epoch and back: Postgres' own
 * precision, so keyset cursors carry an instant no row can fall between (docs/inbox.md, "Message
 * pages and the cursor"). The message, conversation-list and search cursors share them.
 */

/** The expression's instant as a bigint of microseconds since the epoch. */
export const microsOf = (expression: string): string => `(extract(epoch FROM ${expression}) * 1000000)::bigint`;

/** The instant `micros` (an integer expression or parameter, in microseconds since the epoch) names. */
export const instantOfMicros = (micros: string): string => `(timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond')`;
