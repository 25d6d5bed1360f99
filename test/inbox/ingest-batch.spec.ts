import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { ANALYZE_AFTER_CREATED } from '../../src/modules/inbox/ingest/table-statistics.js';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('inbox ingest: bulk (history) variant', () => {
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

  it('stores thousands of messages, creates each chat once and moves aggregates once per chat', async () => {
    const ws = await t.factories.workspace();
    const phones = Array.from({ length: 5 }, randomPhone);
    const base = Date.now() - 3_600_000;
    const batch = Array.from({ length: 3000 }, (_, i) =>
      inbox.inbound({
        phone: phones[i % 5]!,
        content: `history ${i}`,
        direction: i % 3 === 0 ? 'outbound' : 'inbound',
        timestamp: new Date(base + i * 1000),
      }),
    );
    batch.push(inbox.groupInbound('120363000000000777', { content: 'group history', timestamp: new Date(base) }));
    // appendAll: every publish path (publish, publishAll, append) ends there. Watched, so a
    // per-message event would get that far.
    await t.app.get(LiveEventsService).markWatched([ws.id]);
    const live = jest.spyOn(t.app.get(LiveEventsService), 'appendAll');
    const result = await ingest.ingestBatch(ws.id, batch);
    const published = live.mock.calls.filter(([id]) => id === ws.id).length;
    live.mockRestore();
    expect(published).toBe(0);
    expect(result).toEqual({ received: 3001, inserted: 3001, duplicates: 0, conversationsCreated: 6 });
    expect(await inbox.count('messages WHERE workspace_id = $1', [ws.id])).toBe(3001);
    expect(await inbox.count('contacts WHERE workspace_id = $1', [ws.id])).toBe(5);

    const rows: { chat_phone: string; unread_count: number; last_message_preview: string; last_message_at: Date; is_group: boolean }[] =
      await t.dataSource.query(
        `SELECT chat_phone, unread_count, last_message_preview, last_message_at, is_group FROM conversations
          WHERE workspace_id = $1 ORDER BY last_message_at DESC`,
        [ws.id],
      );
    // Message 2999 is the newest; per phone, 600 messages of which a third are outbound.
    expect(rows[0]).toMatchObject({ chat_phone: phones[2999 % 5], last_message_preview: 'history 2999' });
    expect(new Date(rows[0]!.last_message_at).getTime()).toBe(base + 2999 * 1000);
    const inboundPerPhone = phones.map((_, p) => batch.slice(0, 3000).filter((m, i) => i % 5 === p && m.direction === 'inbound').length);
    const byPhone = new Map(rows.map((r) => [r.chat_phone, r.unread_count]));
    phones.forEach((phone, p) => expect(byPhone.get(phone)).toBe(inboundPerPhone[p]));
    expect(rows.find((r) => r.is_group)).toMatchObject({ unread_count: 1, last_message_preview: 'group history' });
  });

  it('is idempotent: re-running the batch (and repeats inside it) changes nothing', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    const batch = Array.from({ length: 50 }, (_, i) => inbox.inbound({ phone, content: `m${i}`, timestamp: new Date(Date.now() - (50 - i) * 1000) }));
    const withRepeat = [...batch, { ...batch[0]!, externalId: batch[0]!.externalId }];
    const first = await ingest.ingestBatch(ws.id, withRepeat);
    expect(first).toMatchObject({ received: 51, inserted: 50, duplicates: 1, conversationsCreated: 1 });
    const before = await t.dataSource.query('SELECT unread_count, last_message_at, last_message_preview FROM conversations WHERE workspace_id = $1', [ws.id]);
    const again = await ingest.ingestBatch(ws.id, batch);
    expect(again).toEqual({ received: 50, inserted: 0, duplicates: 50, conversationsCreated: 0 });
    const after = await t.dataSource.query('SELECT unread_count, last_message_at, last_message_preview FROM conversations WHERE workspace_id = $1', [ws.id]);
    expect(after).toEqual(before);
    expect(before[0].unread_count).toBe(50);
  });

  it('links into conversations the live path created, and can leave unread counts alone', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    const live = await inbox.message(ws.id, { phone, content: 'live one' });
    const older = Array.from({ length: 10 }, (_, i) => inbox.inbound({ phone, content: `old ${i}`, timestamp: new Date(Date.now() - 86_400_000 + i) }));
    const result = await ingest.ingestBatch(ws.id, older, { countUnread: false });
    expect(result).toMatchObject({ inserted: 10, conversationsCreated: 0 });
    const [conversation] = await t.dataSource.query('SELECT id, unread_count, last_message_preview FROM conversations WHERE workspace_id = $1', [ws.id]);
    expect(conversation).toEqual({ id: live.conversation.id, unread_count: 1, last_message_preview: 'live one' });
  });

  it("refreshes the inbox tables' statistics after an import that created many conversations, not after a small one", async () => {
    const analyzed = async (): Promise<number> =>
      (await t.dataSource.query(`SELECT sum(analyze_count)::int AS n FROM pg_stat_user_tables WHERE relname IN ('contacts', 'conversations')`))[0].n as number;
    const ws = await t.factories.workspace();
    const before = await analyzed();
    await ingest.ingestBatch(
      ws.id,
      Array.from({ length: 20 }, () => inbox.inbound({ phone: randomPhone() })),
    );
    await ingest.statistics.settled();
    expect(await analyzed()).toBe(before);
    // A first history sync: a thousand chats at once. The live path's prepared plans are re-made from fresh statistics.
    const result = await ingest.ingestBatch(
      ws.id,
      Array.from({ length: ANALYZE_AFTER_CREATED }, () => inbox.inbound({ phone: randomPhone() })),
    );
    expect(result.conversationsCreated).toBe(ANALYZE_AFTER_CREATED);
    await ingest.statistics.settled();
    // Manual ANALYZE only (autovacuum counts in autoanalyze_count): once per table.
    expect(await analyzed()).toBe(before + 2);
  });

  it('treats an empty batch as nothing to do', async () => {
    const ws = await t.factories.workspace();
    expect(await ingest.ingestBatch(ws.id, [])).toEqual({ received: 0, inserted: 0, duplicates: 0, conversationsCreated: 0 });
  });

  it('counts only the conversations it really created when batches on the same chats run at once', async () => {
    const ws = await t.factories.workspace();
    const phones = Array.from({ length: 5 }, randomPhone);
    const batch = Array.from({ length: 20 }, (_, i) => inbox.inbound({ phone: phones[i % 5]!, timestamp: new Date(Date.now() - 60_000 + i) }));
    // Hold back every insert into conversations until all four batches have found the chats
    // missing, so they really race for the same rows (SHARE lets their reads through).
    const gate = t.dataSource.createQueryRunner();
    await gate.connect();
    await gate.startTransaction();
    let results: Awaited<ReturnType<InboxIngestService['ingestBatch']>>[];
    try {
      await gate.query('LOCK TABLE conversations IN SHARE MODE');
      const running = Promise.all(Array.from({ length: 4 }, () => ingest.ingestBatch(ws.id, batch)));
      await waitForLockWaiters(4);
      await gate.commitTransaction();
      results = await running;
    } finally {
      if (gate.isTransactionActive) await gate.rollbackTransaction();
      await gate.release();
    }
    expect(await inbox.count('conversations WHERE workspace_id = $1', [ws.id])).toBe(5);
    expect(results.reduce((sum, r) => sum + r.conversationsCreated, 0)).toBe(5);
    expect(results.reduce((sum, r) => sum + r.inserted, 0)).toBe(20);
    expect(results.reduce((sum, r) => sum + r.duplicates, 0)).toBe(60);
  });

  /** Until `n` statements wait for a lock on the conversations table. */
  async function waitForLockWaiters(n: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [row]: { waiting: number }[] = await t.dataSource.query(
        `SELECT count(*)::int AS waiting FROM pg_locks WHERE relation = 'conversations'::regclass AND NOT granted`,
      );
      if (row!.waiting >= n) return;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${n} batches to queue on the lock (${row!.waiting})`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
});
