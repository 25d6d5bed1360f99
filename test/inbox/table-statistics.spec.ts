import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { CHECK_EVERY_STORED } from '../../src/modules/inbox/ingest/table-statistics.js';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe("inbox ingest: the live tables' statistics", () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let ingest: InboxIngestService;

  beforeAll(async () => {
    t = await createTestApp();
    inbox = new InboxFactories(t.app);
    ingest = t.app.get(InboxIngestService);
  });
  afterAll(async () => {
    await t?.close();
  });

  const messagesStatistics = async (): Promise<{ reltuples: number; analyzed: number }> =>
    (
      await t.dataSource.query(
        `SELECT c.reltuples::float8 AS reltuples, s.analyze_count::int AS analyzed
           FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.oid = 'messages'::regclass`,
      )
    )[0];

  /** `count` live messages over 20 chats, from 8 callers at once (so they commit in groups). */
  const live = async (workspaceId: string, phones: string[], count: number): Promise<void> => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < count) {
          const index = next++;
          await inbox.message(workspaceId, { phone: phones[index % phones.length]!, content: `message ${index}: ${'lorem ipsum '.repeat(4)}` });
        }
      }),
    );
    await ingest.statistics.settled();
  };

  it('analyses messages once the live path filled the never-analysed table, then not while its statistics hold', async () => {
    const ws = await t.factories.workspace();
    const phones = Array.from({ length: 20 }, randomPhone);
    // A database fresh from the migrations, as after a new install: no statistics yet.
    await t.dataSource.query('TRUNCATE messages CASCADE');
    const before = await messagesStatistics();
    expect(before.reltuples).toBe(-1);

    await live(ws.id, phones, CHECK_EVERY_STORED - 1);
    expect(await messagesStatistics()).toEqual(before);

    await live(ws.id, phones, 1);
    const after = await messagesStatistics();
    expect(after.analyzed).toBe(before.analyzed + 1);
    expect(after.reltuples).toBeGreaterThan(CHECK_EVERY_STORED / 2);

    // A unique-key probe's generic plan (as the prepared ingest statements keep one) now takes
    // the unique index, not an index that only starts with the workspace.
    const runner = t.dataSource.createQueryRunner();
    try {
      await runner.query('SET plan_cache_mode = force_generic_plan');
      await runner.query('PREPARE probe(uuid, text, text) AS SELECT id FROM messages WHERE workspace_id = $1 AND channel = $2 AND external_id = $3');
      const plan: { 'QUERY PLAN': string }[] = await runner.query(`EXPLAIN EXECUTE probe('${ws.id}', 'scan', 'x')`);
      expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('messages_workspace_channel_external_uq');
      await runner.query('DEALLOCATE probe');
      await runner.query('RESET plan_cache_mode');
    } finally {
      await runner.release();
    }

    // Twice the rows the statistics hold: within GROWN_FACTOR, nothing to do.
    await live(ws.id, phones, CHECK_EVERY_STORED);
    expect((await messagesStatistics()).analyzed).toBe(after.analyzed);
  });
});
