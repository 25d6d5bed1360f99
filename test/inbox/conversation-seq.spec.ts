import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ConversationSeq1764011600000 } from '../../src/infra/database/migrations/1764011600000-ConversationSeq.js';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import type { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { type InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import type { TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';

// Issue 38: every message carries its conversation's `seq`, 1, 2, 3, … gap-free, under concurrent
// ingest (group commit included) and sends; `?after_seq=` fills a gap (docs/inbox.md).
describe('conversation seq', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;
  let ingest: InboxIngestService;

  beforeAll(async () => {
    ({ t, inbox, gateway } = await createInboxTestApp());
    ingest = t.app.get(InboxIngestService);
  });
  beforeEach(() => gateway.reset());
  afterAll(async () => {
    await t?.close();
  });

  async function setup() {
    const { workspace, key } = await t.factories.workspaceWithOwner();
    return { ws: workspace, caller: { key } as Caller };
  }
  const seqsOf = async (conversationId: string): Promise<number[]> =>
    (
      await t.dataSource.query<{ s: string }[]>('SELECT conversation_seq AS s FROM messages WHERE conversation_id = $1 ORDER BY conversation_seq', [
        conversationId,
      ])
    ).map((row) => Number(row.s));
  const lastSeqOf = async (conversationId: string): Promise<number> =>
    Number((await t.dataSource.query<{ s: string }[]>('SELECT last_seq AS s FROM conversations WHERE id = $1', [conversationId]))[0]!.s);
  const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

  it('numbers concurrent inbound messages (grouped and alone) and API sends of one chat 1..N, repeats taking no number', async () => {
    const { ws, caller } = await setup();
    gateway.connect(ws.id);
    const phone = randomPhone();
    const first = await inbox.message(ws.id, { phone, content: 'first' });
    expect(first.message.conversationSeq).toBe('1');
    const conversationId = first.conversation.id;
    const inputs = Array.from({ length: 120 }, (_, i) => inbox.inbound({ phone, content: `in ${i}` }));
    // Repeats of some of them in the same burst, and of the first message.
    const repeats = [inputs[3]!, inputs[50]!, inputs[119]!, inbox.inbound({ phone, externalId: first.message.externalId! })];
    const sends = Array.from({ length: 20 }, (_, i) => call(t, caller, 'post', `/api/conversations/${conversationId}/messages`, { body: `out ${i}` }));
    const results = await Promise.all([...inputs, ...repeats].map((input) => ingest.ingest(ws.id, input)));
    const sent = await Promise.all(sends);
    expect(sent.map((r) => r.status)).toEqual(sent.map(() => 201));
    const created = results.filter((r) => r.created);
    expect(created).toHaveLength(120);
    // The numbers the callers (and so the hooks) got are the stored ones, and unique.
    const given = [...created.map((r) => Number(r.message.conversationSeq)), ...sent.map((r) => r.body.seq as number), 1];
    expect([...given].sort((a, b) => a - b)).toEqual(range(141));
    expect(await seqsOf(conversationId)).toEqual(range(141));
    expect(await lastSeqOf(conversationId)).toBe(141);
    // A repeat answers the stored message with its number.
    for (const repeat of results.filter((r) => !r.created)) expect(Number(repeat.message.conversationSeq)).toBeGreaterThanOrEqual(1);
    // The next message continues the count.
    const next = await inbox.message(ws.id, { phone, content: 'after' });
    expect(next.message.conversationSeq).toBe('142');
  });

  it('numbers a history batch after the live messages, skipping what is stored, and a re-run changes nothing', async () => {
    const { ws } = await setup();
    const phone = randomPhone();
    const live = await inbox.message(ws.id, { phone, content: 'live' });
    const history = Array.from({ length: 30 }, (_, i) => inbox.inbound({ phone, content: `old ${i}`, timestamp: new Date(Date.now() - 100_000 + i) }));
    // A channel id already stored, and one given twice in the batch.
    const batch = [...history, inbox.inbound({ phone, externalId: live.message.externalId! }), history[7]!];
    const [once, again] = await Promise.all([ingest.ingestBatch(ws.id, batch), ingest.ingestBatch(ws.id, batch)]);
    expect(once.inserted + again.inserted).toBe(30);
    expect(await seqsOf(live.conversation.id)).toEqual(range(31));
    expect(await lastSeqOf(live.conversation.id)).toBe(31);
    expect((await inbox.message(ws.id, { phone })).message.conversationSeq).toBe('32');
  });

  it('answers seq on every message and pages with after_seq, oldest first', async () => {
    const { ws, caller } = await setup();
    const phone = randomPhone();
    let conversationId = '';
    for (let i = 0; i < 7; i++) conversationId = (await inbox.message(ws.id, { phone, content: `m${i + 1}` })).conversation.id;
    const path = `/api/conversations/${conversationId}/messages`;
    const newest = await call(t, caller, 'get', path);
    expect(newest.body.messages.map((m: { seq: number }) => m.seq)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    const page = await call(t, caller, 'get', `${path}?after_seq=2&limit=3`);
    expect(page.status).toBe(200);
    expect(page.body.next_cursor).toBeNull();
    expect(page.body.messages.map((m: { seq: number; content: string }) => [m.seq, m.content])).toEqual([
      [3, 'm3'],
      [4, 'm4'],
      [5, 'm5'],
    ]);
    const rest = await call(t, caller, 'get', `${path}?after_seq=5`);
    expect(rest.body.messages.map((m: { seq: number }) => m.seq)).toEqual([6, 7]);
    expect((await call(t, caller, 'get', `${path}?after_seq=0`)).body.messages).toHaveLength(7);
    expect((await call(t, caller, 'get', `${path}?after_seq=7`)).body).toEqual({ messages: [], next_cursor: null });
    for (const bad of ['-1', '1.5', 'x', '', '1e3', '9999999999999999']) {
      const res = await call(t, caller, 'get', `${path}?after_seq=${bad}`);
      expect([bad, res.status, res.body]).toEqual([bad, 400, { error: 'after_seq must be a non-negative integer' }]);
    }
    const both = await call(t, caller, 'get', `${path}?after_seq=1&before=${newest.body.next_cursor ?? 'MTox'}`);
    expect([both.status, both.body.error]).toEqual([400, 'after_seq cannot be combined with before: after_seq pages oldest first, before newest first']);
    const limit = await call(t, caller, 'get', `${path}?after_seq=1&limit=101`);
    expect([limit.status, limit.body.error]).toEqual([400, 'limit must be an integer between 1 and 100']);
  });

  it('states the after_seq rule in the OpenAPI document', async () => {
    const res = await call(t, (await setup()).caller, 'get', '/api/openapi.json');
    const parameters = res.body.paths['/api/conversations/{id}/messages'].get.parameters as { name: string; schema: unknown; description: string }[];
    const afterSeq = parameters.find((p) => p.name === 'after_seq')!;
    expect(afterSeq.schema).toMatchObject({ type: 'integer', minimum: 0 });
    expect(afterSeq.description).toMatch(/oldest first/);
    expect(res.body.components.schemas.MessageResponse.properties.seq).toMatchObject({ type: 'integer' });
  });

  it('backfills existing messages per conversation by insertion order (the migration, on a scratch schema)', async () => {
    const schema = `seq_migration_${Math.random().toString(36).slice(2, 10)}`;
    const rolledBack = new Error('roll back the scratch schema');
    await expect(
      t.dataSource.transaction(async (manager) => {
        // The tables as before the migration, as far as it reads them; its own SQL runs on them.
        await manager.query(`CREATE SCHEMA ${schema}`);
        await manager.query(`SET LOCAL search_path TO ${schema}`);
        await manager.query(`CREATE TABLE conversations (id text PRIMARY KEY)`);
        await manager.query(`CREATE TABLE messages (id text PRIMARY KEY, conversation_id text NOT NULL, seq bigint NOT NULL)`);
        await manager.query(`INSERT INTO conversations VALUES ('a'), ('b'), ('empty')`);
        // Interleaved, and not in seq order on disk.
        await manager.query(`INSERT INTO messages VALUES ('a3', 'a', 50), ('b1', 'b', 11), ('a1', 'a', 10), ('a2', 'a', 12), ('b2', 'b', 60)`);
        await new ConversationSeq1764011600000().up({ query: (sql: string) => manager.query(sql) } as never);
        const messages: { id: string; conversation_seq: string }[] = await manager.query(`SELECT id, conversation_seq FROM messages ORDER BY id`);
        const counters: { id: string; last_seq: string }[] = await manager.query(`SELECT id, last_seq FROM conversations ORDER BY id`);
        const index: { indexdef: string }[] = await manager.query(
          `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'messages_conversation_seq_uq'`,
          [schema],
        );
        expect(messages.map((m) => [m.id, Number(m.conversation_seq)])).toEqual([
          ['a1', 1],
          ['a2', 2],
          ['a3', 3],
          ['b1', 1],
          ['b2', 2],
        ]);
        expect(counters.map((c) => [c.id, Number(c.last_seq)])).toEqual([
          ['a', 3],
          ['b', 2],
          ['empty', 0],
        ]);
        expect(index[0]?.indexdef).toMatch(/UNIQUE INDEX .* \(conversation_id, conversation_seq\)/);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
  });
});
