import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type JsonCell, type JsonColumn, jsonRows, jsonRowsSql } from '../../src/infra/database/json-rows.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * The live path's multi-row statements take their rows as one JSON parameter (jsonRows) instead of
 * one array per column: what Postgres reads back must be exactly what one array per column gave,
 * value for value, whatever the text holds.
 */
describe('jsonRows: many rows in one statement parameter', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const columns: JsonColumn[] = [
    ['id', 'uuid'],
    ['note', 'text'],
    ['flag', 'boolean'],
    ['size', 'int'],
    ['at', 'timestamptz'],
    ['seq', 'bigint'],
  ];
  const read = (rows: JsonCell[][]): Promise<Record<string, unknown>[]> =>
    t.dataSource.query(`SELECT id, note, flag, size, at, seq, ord::int AS ord FROM (${jsonRowsSql('$1', columns)}) u ORDER BY ord`, [jsonRows(rows)]);
  const asArrays = (rows: JsonCell[][]): Promise<Record<string, unknown>[]> =>
    t.dataSource.query(
      `SELECT id, note, flag, size, at, seq, ord::int AS ord
         FROM unnest($1::uuid[], $2::text[], $3::boolean[], $4::int[], $5::timestamptz[], $6::bigint[]) WITH ORDINALITY AS u(id, note, flag, size, at, seq, ord)
        ORDER BY ord`,
      columns.map((_, index) => rows.map((row) => row[index]!)),
    );

  it('reads back every value as one array per column did: quotes, backslashes, escapes, Unicode, nulls, types', async () => {
    const rows: JsonCell[][] = [
      ['6c91ffb9-f445-4836-89cc-5ee8bd2b05e2', 'a "quoted" \\ back\\slash {brace} , comma', true, 5, '2026-01-02T03:04:05.678Z', '9007199254740993'],
      ['8f93c919-7a94-465b-bb2a-9c6e12d8da0e', 'ünïcødé ✓ 😀 \u2028 line\nbreak\ttab \u001f', false, null, '2026-11-27T00:00:00Z', '1'],
      ['0b6f9e8e-2f8e-4b3e-9d1c-2f1e7c0a9b11', '', null, 0, '1970-01-01T00:00:00Z', null],
      ['0b6f9e8e-2f8e-4b3e-9d1c-2f1e7c0a9b12', 'NULL', true, -2147483648, '2026-06-30T23:59:59.999+02:00', '0'],
      ['0b6f9e8e-2f8e-4b3e-9d1c-2f1e7c0a9b13', null, false, 2147483647, '2000-02-29T12:00:00Z', '-5'],
    ];
    const back = await read(rows);
    expect(back).toEqual(await asArrays(rows));
    expect(back.map((row) => row.note)).toEqual(rows.map((row) => row[1]));
    expect(back.map((row) => row.ord)).toEqual([1, 2, 3, 4, 5]);
    expect(back[0]!.seq).toBe('9007199254740993');
  });

  it('writes a lone surrogate as U+FFFD, as a text parameter does, instead of failing every row', async () => {
    const rows: JsonCell[][] = [
      ['6c91ffb9-f445-4836-89cc-5ee8bd2b05e2', 'lone high \ud800 here', true, 1, '2026-01-01T00:00:00Z', '1'],
      ['8f93c919-7a94-465b-bb2a-9c6e12d8da0e', 'lone low \udc00 and a pair 😀', true, 2, '2026-01-01T00:00:00Z', '2'],
    ];
    const back = await read(rows);
    expect(back.map((row) => row.note)).toEqual(['lone high \ufffd here', 'lone low \ufffd and a pair 😀']);
    expect(back).toEqual(await asArrays(rows));
  });

  it('reads no rows from an empty array', async () => {
    expect(await read([])).toEqual([]);
  });
});
