import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { parseTimestamptz } from '../../src/infra/database/timestamptz-parser.js';
import { TEST_DATABASE_SERVER } from '../support/test-env.js';

// node-postgres's own parser (postgres-date), taken before anything installs ours: what
// parseTimestamptz must always agree with.
const postgresDate = pg.types.getTypeParser(1184, 'text') as (text: string) => Date | number | null;

/**
 * Timestamps are read with a parser of our own (7 per message on the live ingest path). It must
 * give the instant Postgres stored, for whatever text the server writes: every session time zone
 * (offsets with minutes and, before 1900, seconds), fractions of any length, and the forms it
 * hands to postgres-date (BC, infinity, years outside 1000-9999).
 */
describe('reading timestamptz', () => {
  let client: pg.Client;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: TEST_DATABASE_SERVER });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });

  /** The server's text of each sampled instant under `zone`, with its epoch in whole milliseconds. */
  async function sample(zone: string): Promise<{ text: string; ms: string }[]> {
    await client.query(`SET TimeZone = '${zone}'`);
    await client.query('SELECT setseed(0.42)');
    const { rows } = await client.query<{ text: string; ms: string }>(
      `SELECT t::text AS text, floor(extract(epoch FROM t) * 1000)::int8::text AS ms
         FROM (SELECT timestamptz '1000-01-01 00:00:00+00' + (random() * interval '9000 years') AS t FROM generate_series(1, 2000)
               UNION ALL SELECT timestamptz '1883-11-18 12:00:00+00' + i * interval '1 hour 7 minutes 13.000123 seconds' FROM generate_series(1, 400) i
               UNION ALL SELECT now() + i * interval '0.1 ms' FROM generate_series(1, 200) i
               UNION ALL SELECT date_trunc('second', now()) + i * interval '1 day' FROM generate_series(1, 50) i) s`,
    );
    return rows;
  }

  for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Europe/Amsterdam', 'Pacific/Chatham', 'America/Los_Angeles']) {
    it(`reads the instant Postgres wrote under TimeZone ${zone}, as postgres-date does`, async () => {
      const rows = await sample(zone);
      const misread = rows.filter(({ text, ms }) => {
        const parsed = parseTimestamptz(text) as Date;
        return !(parsed instanceof Date) || parsed.getTime() !== Number(ms) || parsed.getTime() !== (postgresDate(text) as Date).getTime();
      });
      expect(misread).toEqual([]);
      // The sample does hit the offsets that make this zone worth trying.
      if (zone === 'Europe/Amsterdam') expect(rows.some(({ text }) => /[+-]\d\d:\d\d:\d\d$/.test(text))).toBe(true);
      if (zone === 'Asia/Kolkata') expect(rows.some(({ text }) => text.endsWith('+05:30'))).toBe(true);
    });
  }

  it('hands every other form to postgres-date and answers what it answers', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '0044-03-15 12:00:00+00 BC',
      '0099-12-31 23:59:59.5+00',
      '0999-01-01 00:00:00+00',
      '12345-06-07 08:09:10+00',
      '2026-01-02T03:04:05Z',
      '2026-01-02 03:04:05',
      '2026-01-02 03:04:05.+00',
      '2026-01-02 03:04:05+0',
      '2026-01-02 03:04:05+00:3',
    ]) {
      const ours = parseTimestamptz(text);
      const theirs = postgresDate(text);
      expect({ text, ours: ours instanceof Date ? ours.getTime() : ours }).toEqual({ text, ours: theirs instanceof Date ? theirs.getTime() : theirs });
    }
  });

  it('is what every query of the service reads timestamps with', async () => {
    const { dataSourceOptions } = await import('../../src/infra/database/data-source-options.js');
    dataSourceOptions(TEST_DATABASE_SERVER, []);
    expect(pg.types.getTypeParser(1184, 'text')).toBe(parseTimestamptz);
    await client.query(`SET TimeZone = 'Asia/Kolkata'`);
    const { rows } = await client.query<{ at: Date }>(`SELECT timestamptz '2026-01-02 03:04:05.678901+00' AS at`);
    expect(rows[0]!.at).toEqual(new Date('2026-01-02T03:04:05.678Z'));
  });
});
