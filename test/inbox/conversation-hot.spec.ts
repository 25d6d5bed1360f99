import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { normalizeInbound } from '../../src/modules/inbox/ingest/inbound-message.js';
import { IngestRepository } from '../../src/modules/inbox/ingest/ingest.repository.js';
import { inTransaction } from '../../src/infra/database/sql-transaction.js';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The conversation list's index holds the hour of the last message, not its time (docs/inbox.md,
// "The conversation row, HOT"): a new message within the same hour updates the conversation
// without writing any index entry (a HOT update); one in a new hour moves the index key.
describe('conversation updates stay HOT within the hour', () => {
  let t: TestApp;
  let inbox: InboxFactories;

  beforeAll(async () => {
    t = await createTestApp();
    inbox = new InboxFactories(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('moves a conversation HOT for a message of the same hour, not for one of the next', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 5 * 3_600_000;
    await inbox.message(ws.id, { phone, timestamp: new Date(hour + 5 * 60_000) });
    const repository = t.app.get(IngestRepository);
    // One transaction on one connection: its own statistics count exactly its own updates.
    const counts = await inTransaction(t.dataSource, async (tx) => {
      const read = async (): Promise<{ upd: number; hot: number }> =>
        (
          await tx.query<{ upd: number; hot: number }>(
            `SELECT pg_stat_get_xact_tuples_updated('conversations'::regclass)::int AS upd, pg_stat_get_xact_tuples_hot_updated('conversations'::regclass)::int AS hot`,
          )
        )[0]!;
      const before = await read();
      await repository.ingest(ws.id, normalizeInbound(inbox.inbound({ phone, timestamp: new Date(hour + 40 * 60_000) })), tx);
      const sameHour = await read();
      await repository.ingest(ws.id, normalizeInbound(inbox.inbound({ phone, timestamp: new Date(hour + 70 * 60_000) })), tx);
      const nextHour = await read();
      return {
        sameHour: { upd: sameHour.upd - before.upd, hot: sameHour.hot - before.hot },
        nextHour: { upd: nextHour.upd - sameHour.upd, hot: nextHour.hot - sameHour.hot },
      };
    });
    expect(counts).toEqual({ sameHour: { upd: 1, hot: 1 }, nextHour: { upd: 1, hot: 0 } });
  });
});
