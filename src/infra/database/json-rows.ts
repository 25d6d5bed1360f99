/** A value of one column of one row: what JSON can carry and SQL casts back from its text. */
export type JsonCell = string | number | boolean | null;

/**
 * Many rows as one statement parameter: a JSON array with one array per row, read back in SQL by
 * `jsonRowsSql`. The multi-row statements of the live path used one array parameter per column
 * instead (`unnest($1::uuid[], $2::text[], …)`): node-postgres writes each element of those by
 * hand (two regular-expression replaces per string) and Postgres parses each array on its own,
 * which for a group of 128 messages cost about 2.5 ms of the two together, more than the
 * statement's own execution; `JSON.stringify` writes the same values natively, in one pass.
 *
 * A lone surrogate (ill-formed UTF-16) is written as U+FFFD, as node-postgres writes it in a text
 * parameter: JSON would escape it (`\ud800`), which Postgres's JSON reader refuses, failing the
 * statement for every row in it.
 */
export function jsonRows(rows: readonly (readonly JsonCell[])[]): string {
  if (rows.every((row) => row.every((cell) => typeof cell !== 'string' || cell.isWellFormed()))) return JSON.stringify(rows);
  return JSON.stringify(rows.map((row) => row.map((cell) => (typeof cell === 'string' ? cell.toWellFormed() : cell))));
}

/** A column of `jsonRowsSql`: its name and SQL type (text columns need no cast). */
export type JsonColumn = readonly [name: string, type: string];

/** The select list reading the typed columns out of a `jsonRows` row `r` (a JSON array). */
export function jsonColumnsSql(columns: readonly JsonColumn[], row = 'r'): string {
  return columns.map(([name, type], index) => (type === 'text' ? `${row}->>${index} AS ${name}` : `(${row}->>${index})::${type} AS ${name}`)).join(', ');
}

/**
 * The rows of a `jsonRows` parameter (`$n`) as a row source with the named, typed columns and
 * `ord` (the row's position, from 1): `WITH u AS MATERIALIZED (${jsonRowsSql('$1', columns)})`.
 * JSON null reads as SQL NULL. Read as `jsonb`, whose `->>` finds an element at once: on `json`
 * each one re-reads the row's text from its start (a group of 128 rows of 23 columns took 12 ms
 * that way, against 3 ms as jsonb). MATERIALIZED where the rows are used more than once as a
 * subquery: Postgres would otherwise inline the extractions at every place a column is used.
 */
export function jsonRowsSql(parameter: string, columns: readonly JsonColumn[]): string {
  return `SELECT ${jsonColumnsSql(columns)}, ord FROM jsonb_array_elements(${parameter}::jsonb) WITH ORDINALITY AS j(r, ord)`;
}
