import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { GroupCommitOptions } from '../../src/infra/batching/group-commit.js';
import { RedisKeys } from '../../src/infra/redis/redis.module.js';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { ConversationListRepository } from '../../src/modules/inbox/conversations/conversation-list.repository.js';
import { conversationColumns, messageColumns } from '../../src/modules/inbox/inbox-columns.js';
import type { InboundMessage } from '../../src/modules/inbox/ingest/inbound-message.js';
import { InboxIngestService, type IngestResult, LIVE_GROUP_COMMIT } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { IngestHooks } from '../../src/modules/inbox/ingest/ingest-hooks.js';
import { InboxFactories, randomLid, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { eventually } from '../chat/chat-support.js';

// Group commit (docs/inbox.md): concurrent live ingests share one transaction. On an idle service
// the first call starts at once, alone; the calls made in the same turn of the event loop after it
// land in the next group together. `hooks: false` keeps them free of the hooks' own asynchronous
// look-ups, so a test knows which calls share a group.
describe('inbox ingest: group commit', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let ingest: InboxIngestService;
  const unregister: (() => void)[] = [];
  const spies: { mockRestore(): void }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    inbox = new InboxFactories(t.app);
    ingest = t.app.get(InboxIngestService);
  });
  afterEach(() => {
    unregister.splice(0).forEach((remove) => remove());
    spies.splice(0).forEach((spy) => spy.mockRestore());
  });
  afterAll(async () => {
    await t?.close();
  });

  const settle = (calls: Promise<IngestResult>[]) => Promise.allSettled(calls);
  /** Stops the workspace's first group in its hooks (messages written, transaction open) until `release`. */
  const holdFirstGroup = (workspaceId: string): { inFirst: Promise<void>; release: () => void } => {
    let entered!: () => void;
    const inFirst = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let groups = 0;
    unregister.push(
      t.app.get(IngestHooks).register({
        inTransactionMany: async (_tx, events) => {
          if (events[0]?.workspaceId !== workspaceId || groups++ > 0) return;
          entered();
          await released;
        },
      }),
    );
    return { inFirst, release };
  };
  /** Other group limits for this test only (the service's, LIVE_GROUP_COMMIT, come back after it). */
  const groupLimits = (options: Partial<GroupCommitOptions>): void => {
    ingest.configureGroupCommit(options);
    unregister.push(() => ingest.configureGroupCommit(LIVE_GROUP_COMMIT));
  };
  const stored = (workspaceId: string): Promise<{ external_id: string; content: string }[]> =>
    t.dataSource.query('SELECT external_id, content FROM messages WHERE workspace_id = $1 ORDER BY seq', [workspaceId]);

  it('writes a channel id given twice in one group once: one caller gets it created, the other as a repeat', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    await inbox.message(ws.id, { phone, content: 'known chat' });
    const twice = inbox.inbound({ phone, content: 'twice' });
    const others = Array.from({ length: 5 }, (_, i) => inbox.inbound({ phone, content: `other ${i}` }));
    // others[0] starts alone; the rest, both copies of `twice` among them, form one group.
    const results = await Promise.all([others[0]!, twice, ...others.slice(1), twice].map((input) => ingest.ingest(ws.id, input, { hooks: false })));
    expect(results.map((r) => r.created)).toEqual([true, true, true, true, true, true, false]);
    expect(results[6]!.message.id).toBe(results[1]!.message.id);
    const contents = (await stored(ws.id)).map((m) => m.content);
    expect(contents.slice(1).sort()).toEqual(['other 0', 'other 1', 'other 2', 'other 3', 'other 4', 'twice']);
    // The group in call order.
    expect(contents.filter((c) => c !== 'other 0').slice(1)).toEqual(['twice', 'other 1', 'other 2', 'other 3', 'other 4']);
    expect(await inbox.count('conversations WHERE workspace_id = $1', [ws.id])).toBe(1);
    expect(await inbox.count('contacts WHERE workspace_id = $1', [ws.id])).toBe(1);
  });

  it('treats channel ids that differ only in a lone surrogate as the one id Postgres stores (U+FFFD)', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    await inbox.message(ws.id, { phone, content: 'known chat' });
    const [high, low] = [inbox.inbound({ phone, content: 'high' }), inbox.inbound({ phone, content: 'low' })];
    high.externalId = `${high.externalId}\uD800`;
    low.externalId = `${high.externalId.slice(0, -1)}\uD801`;
    const results = await Promise.all([inbox.inbound({ phone }), high, low].map((input) => ingest.ingest(ws.id, input, { hooks: false })));
    expect(results.map((r) => r.created)).toEqual([true, true, false]);
    expect(results[2]!.message.id).toBe(results[1]!.message.id);
    const [row] = await t.dataSource.query(`SELECT ${messageColumns('m')} FROM messages m WHERE m.id = $1`, [results[1]!.message.id]);
    expect(row.externalId).toBe(`${high.externalId.slice(0, -1)}\uFFFD`);
    expect({ ...results[1]!.message }).toEqual(row);
  });

  it('answers each caller of a group its message exactly as stored, media fields and all', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    await inbox.message(ws.id, { phone, content: 'known chat' });
    const inputs = [
      inbox.inbound({ phone, content: 'first of the group' }),
      inbox.inbound({ phone, content: 'second: ünïcødé ✓', senderName: 'Ada Lovelace', timestamp: new Date('2026-01-02T03:04:05.678Z') }),
      inbox.inbound({
        phone,
        content: 'a photo',
        type: 'image',
        media: { url: 'https://cdn.example.com/p.jpg', mimeType: 'image/jpeg', fileName: 'p.jpg', fileSize: 12345 },
      }),
      inbox.inbound({ phone, content: '' }),
    ];
    const results = await Promise.all(inputs.map((input) => ingest.ingest(ws.id, input, { hooks: false })));
    expect(results.every((r) => r.created)).toBe(true);
    for (const result of results) {
      const [row] = await t.dataSource.query(`SELECT ${messageColumns('m')} FROM messages m WHERE m.id = $1`, [result.message.id]);
      expect({ ...result.message }).toEqual(row);
    }
    // And its conversation, every column, as the group left it (a copy of its own each).
    const [conversation] = await t.dataSource.query(`SELECT ${conversationColumns('c')} FROM conversations c WHERE c.id = $1`, [results[0]!.conversation.id]);
    expect(conversation.lastMessageSeq).toBe(results[3]!.message.seq);
    for (const result of results) expect({ ...result.conversation }).toEqual(conversation);
    expect(new Set(results.map((r) => r.conversation)).size).toBe(results.length);
  });

  it('writes a channel id given in two concurrent groups once', async () => {
    const ws = await t.factories.workspace();
    const phones = Array.from({ length: 4 }, () => randomPhone());
    // Known chats: the groups take the multi-row statement.
    for (const phone of phones) await inbox.message(ws.id, { phone });
    const inputs = Array.from({ length: 48 }, (_, i) => inbox.inbound({ phone: phones[i % 4], content: `c${i}` }));
    // The first group holds its transaction open until the second group has started.
    const { inFirst, release } = holdFirstGroup(ws.id);
    const first = settle(inputs.slice(0, 16).map((input) => ingest.ingest(ws.id, input)));
    await inFirst;
    // Overlapping channel ids, while the first group's rows are not committed yet; enough callers
    // (40) for a group beside a running one.
    const second = settle(inputs.slice(8).map((input) => ingest.ingest(ws.id, input)));
    setTimeout(release, 300);
    const [a, b] = await Promise.all([first, second]);
    const ok = [...a, ...b].map((r) => (r.status === 'fulfilled' ? r.value : null));
    expect(ok.every((r) => r !== null)).toBe(true);
    const created = ok.filter((r) => r!.created).map((r) => r!.message.content);
    expect(created.sort()).toEqual(inputs.map((m) => m.content).sort());
    expect(await inbox.count('messages WHERE workspace_id = $1', [ws.id])).toBe(4 + 48);
  });

  it('has the few callers of a moderate load wait for the running group rather than start a small group beside it', async () => {
    // The wait is bounded (25 ms by default); unbounded here, so the hold below cannot outlast it.
    groupLimits({ maxWaitWhileBusyMs: Number.POSITIVE_INFINITY });
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    await inbox.message(ws.id, { phone });
    const inputs = Array.from({ length: 12 }, (_, i) => inbox.inbound({ phone, content: `m${i}` }));
    const groups: number[] = [];
    unregister.push(t.app.get(IngestHooks).register({ inTransactionMany: async (_tx, events) => void groups.push(events.length) }));
    const { inFirst, release } = holdFirstGroup(ws.id);
    const first = settle(inputs.slice(0, 8).map((input) => ingest.ingest(ws.id, input)));
    await inFirst;
    const later = settle(inputs.slice(8).map((input) => ingest.ingest(ws.id, input)));
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Nothing of the four later callers is written while the first group runs.
      expect(groups).toEqual([8]);
      expect(await inbox.count('messages WHERE workspace_id = $1', [ws.id])).toBe(1);
    } finally {
      release();
    }
    const results = [...(await first), ...(await later)];
    expect(results.every((r) => r.status === 'fulfilled' && r.value.created)).toBe(true);
    // The first group, then the four together.
    expect(groups).toEqual([8, 4]);
    expect((await stored(ws.id)).map((m) => m.content).slice(1)).toEqual(inputs.map((m) => m.content));
  });

  it('holds the few waiting callers up for a group stuck in its transaction no longer than the bound: they commit beside it', async () => {
    const ws = await t.factories.workspace();
    const other = await t.factories.workspace();
    const phone = randomPhone();
    await inbox.message(ws.id, { phone });
    await inbox.message(other.id, { phone });
    const { inFirst, release } = holdFirstGroup(ws.id);
    const first = settle(Array.from({ length: 8 }, (_, i) => ingest.ingest(ws.id, inbox.inbound({ phone, content: `held ${i}` }))));
    await inFirst;
    try {
      // Another workspace's messages, while the first group stays open: they commit all the same.
      const later = await settle(Array.from({ length: 3 }, (_, i) => ingest.ingest(other.id, inbox.inbound({ phone, content: `later ${i}` }))));
      expect(later.every((r) => r.status === 'fulfilled' && r.value.created)).toBe(true);
      expect(await inbox.count('messages WHERE workspace_id = $1', [ws.id])).toBe(1);
    } finally {
      release();
    }
    expect((await first).every((r) => r.status === 'fulfilled' && r.value.created)).toBe(true);
  });

  it('queues concurrent groups over the same conversations (their seq counters are locked to the commit): each conversation ends at its newest message', async () => {
    const ws = await t.factories.workspace();
    const second = new Date(Math.floor(Date.now() / 1000) * 1000);
    const phones = [randomPhone(), randomPhone()];
    for (const phone of phones) await inbox.message(ws.id, { phone, timestamp: second, content: 'start' });
    // All in the same second: only the order of arrival (seq) tells the newest.
    const inputs = Array.from({ length: 16 }, (_, i) => inbox.inbound({ phone: phones[i % 2], timestamp: second, content: `c${i}` }));
    // Two groups of 8 side by side: by default a group of a few callers waits for a running one.
    groupLimits({ minBatchWhileBusy: 1 });
    const { inFirst, release } = holdFirstGroup(ws.id);
    // The first group stops in its hooks, its messages written, its transaction open.
    const first = settle(inputs.slice(0, 8).map((input) => ingest.ingest(ws.id, input)));
    await inFirst;
    // The second group, over the same two conversations, waits for the first's commit (issue 38:
    // the group takes their locks before it numbers its messages; before, it wrote side by side).
    let secondDone = false;
    const second8 = settle(inputs.slice(8).map((input) => ingest.ingest(ws.id, input))).then((results) => {
      secondDone = true;
      return results;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondDone).toBe(false);
    release();
    const firstResults = await first;
    expect(firstResults.every((r) => r.status === 'fulfilled' && r.value.created)).toBe(true);
    expect((await second8).every((r) => r.status === 'fulfilled' && r.value.created)).toBe(true);
    const conversations: { chat_phone: string; unread_count: number; last_message_preview: string; last_seq: string }[] = await t.dataSource.query(
      `SELECT chat_phone, unread_count, last_message_preview, last_seq FROM conversations WHERE workspace_id = $1`,
      [ws.id],
    );
    const byPhone = new Map(conversations.map((c) => [c.chat_phone, c]));
    expect(byPhone.get(phones[0]!)).toMatchObject({ unread_count: 9, last_message_preview: 'c14', last_seq: '9' });
    expect(byPhone.get(phones[1]!)).toMatchObject({ unread_count: 9, last_message_preview: 'c15', last_seq: '9' });
    // What the conversation list shows agrees with the rows.
    const listed = (await t.app.get(ConversationListRepository).first(ws.id, null, {}, 10)).rows;
    expect(listed.map((c) => c.lastMessagePreview)).toEqual(['c15', 'c14']);
  });

  it('isolates a poison message: the others of its group commit, its caller alone gets the error', async () => {
    const ws = await t.factories.workspace();
    const phones = [randomPhone(), randomPhone()];
    await inbox.message(ws.id, { phone: phones[0] });
    const inputs = Array.from({ length: 12 }, (_, i) => inbox.inbound({ phone: phones[i % 2], content: `fine ${i}` }));
    // Postgres refuses a NUL character in text: the whole statement of the group fails.
    inputs.splice(5, 0, inbox.inbound({ phone: phones[0], content: 'poison \u0000 here' }));
    const results = await settle(inputs.map((input) => ingest.ingest(ws.id, input, { hooks: false })));
    expect(results.map((r) => r.status)).toEqual(inputs.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
    expect(String((results[5] as PromiseRejectedResult).reason)).toMatch(/0x00|invalid byte sequence/);
    const rows = await stored(ws.id);
    expect(
      rows
        .filter((m) => m.content.startsWith('fine'))
        .map((m) => m.content)
        .sort(),
    ).toEqual(
      inputs
        .filter((_, i) => i !== 5)
        .map((m) => m.content)
        .sort(),
    );
    // The channel redelivers the others: repeats, nothing changes.
    const again = await Promise.all(inputs.filter((_, i) => i !== 5).map((input) => ingest.ingest(ws.id, input, { hooks: false })));
    expect(again.every((r) => !r.created)).toBe(true);
  });

  it('isolates a message whose hook fails, and runs the hooks once per new message after its commit', async () => {
    const ws = await t.factories.workspace();
    const hooks = t.app.get(IngestHooks);
    const live = t.app.get(LiveEventsService);
    // A Console watches it: its new messages get live events.
    await live.markWatched([ws.id]);
    const publish = jest.spyOn(live, 'publishAll');
    spies.push(publish);
    const inside: string[] = [];
    const after: string[] = [];
    unregister.push(
      hooks.register({
        inTransaction: async ({ workspaceId, message, tx }) => {
          if (workspaceId !== ws.id) return;
          if (message.content === 'hook fails') throw new Error('outbox write failed');
          const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE id = $1', [message.id]);
          inside.push(`${message.content}:${row!.n}`);
        },
        afterCommit: async ({ workspaceId, message }) => {
          if (workspaceId !== ws.id) return;
          const n = await inbox.count('messages WHERE id = $1', [message.id]);
          after.push(`${message.content}:${n}`);
        },
      }),
    );
    const phone = randomPhone();
    await inbox.message(ws.id, { phone, content: 'first' });
    const inputs = Array.from({ length: 8 }, (_, i) => inbox.inbound({ phone, content: `m${i}` }));
    const bad = inbox.inbound({ phone, content: 'hook fails' });
    const calls = [...inputs, inputs[0]!, bad, inputs[3]!].map((input) => ingest.ingest(ws.id, input));
    const results = await settle(calls);
    expect(results.map((r) => r.status)).toEqual([...inputs.map(() => 'fulfilled'), 'fulfilled', 'rejected', 'fulfilled']);
    // Redelivered later: nothing runs again.
    await Promise.all(inputs.map((input) => ingest.ingest(ws.id, input)));
    const expected = ['first', ...inputs.map((m) => m.content)];
    // Inside: each new message once, its row visible (the last group's attempt, after any rollback).
    expect([...new Set(inside)].sort()).toEqual(expected.map((c) => `${c}:1`).sort());
    expect(after.sort()).toEqual(expected.map((c) => `${c}:1`).sort());
    const created = (): string[] =>
      publish.mock.calls
        .filter(([workspaceId]) => workspaceId === ws.id)
        .flatMap(([, events]) => events)
        .filter(({ name }) => name === 'message.created')
        .map(({ data }) => (data as { content: string }).content);
    // Live events go out after the callers' answers (ingest does not wait for the stream); then a
    // moment more, in which a duplicate would show.
    await eventually('every message.created', () => created().length >= expected.length);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(created().sort()).toEqual(expected.sort());
    expect(await inbox.count(`messages WHERE workspace_id = $1 AND content = 'hook fails'`, [ws.id])).toBe(0);
  });

  it('keeps the order of each conversation: new chats, known chats and chats with something to fill in', async () => {
    const ws = await t.factories.workspace();
    const second = new Date(Math.floor(Date.now() / 1000) * 1000);
    const known = randomPhone();
    await inbox.message(ws.id, { phone: known, timestamp: second, content: 'k-start' });
    const fresh = randomPhone();
    const named = randomPhone();
    await inbox.message(ws.id, { phone: named, timestamp: second, content: 'n-start' });
    const inputs: InboundMessage[] = [];
    for (let i = 0; i < 10; i++) {
      inputs.push(inbox.inbound({ phone: known, timestamp: second, content: `k${i}` }));
      inputs.push(inbox.inbound({ phone: fresh, timestamp: second, content: `f${i}` }));
      // n3 brings the contact's LID, which it lacks: that message takes the per-message path, and
      // the ones after it in its chat follow it there.
      inputs.push(inbox.inbound({ phone: named, timestamp: second, content: `n${i}`, ...(i === 3 ? { contact: { phone: named, lid: randomLid() } } : {}) }));
    }
    // An unrelated call takes the idle service's "start alone" turn: all 30 form one group.
    const other = await t.factories.workspace();
    const results = await Promise.all([
      ingest.ingest(other.id, inbox.inbound(), { hooks: false }),
      ...inputs.map((input) => ingest.ingest(ws.id, input, { hooks: false })),
    ]);
    expect(results.every((r) => r.created)).toBe(true);
    const order = (await stored(ws.id)).map((m) => m.content);
    for (const prefix of ['k', 'f', 'n']) {
      expect(order.filter((c) => c.startsWith(prefix) && /\d$/.test(c))).toEqual(Array.from({ length: 10 }, (_, i) => `${prefix}${i}`));
    }
    const conversations: { chat_name: string; unread_count: number; last_message_preview: string }[] = await t.dataSource.query(
      `SELECT chat_name, unread_count, last_message_preview FROM conversations WHERE workspace_id = $1 ORDER BY chat_phone`,
      [ws.id],
    );
    expect(conversations).toHaveLength(3);
    expect(conversations.map((c) => c.last_message_preview).sort()).toEqual(['f9', 'k9', 'n9']);
    expect(conversations.map((c) => c.unread_count).sort()).toEqual([10, 11, 11]);
    // Every caller gets its conversation as the group left it, whichever path its message took.
    const nResults = results.slice(1).filter((r) => r.message.content.startsWith('n'));
    expect(nResults.map((r) => [r.conversation.unreadCount, r.conversation.lastMessagePreview])).toEqual(nResults.map(() => [11, 'n9']));
  });

  it("builds live events only for watched workspaces, in each conversation's order across groups", async () => {
    const live = t.app.get(LiveEventsService);
    const watched = await t.factories.workspace();
    const unwatched = await t.factories.workspace();
    await live.markWatched([watched.id]);
    const publish = jest.spyOn(live, 'publishAll');
    spies.push(publish);
    const phones = [randomPhone(), randomPhone()];
    const inputs = (workspace: string): { workspace: string; input: InboundMessage }[] =>
      Array.from({ length: 40 }, (_, i) => ({ workspace, input: inbox.inbound({ phone: phones[i % 2]!, content: `${phones[i % 2]}-${i}` }) }));
    const both = [...inputs(watched.id), ...inputs(unwatched.id)];
    // Three waves while the previous ones are still in flight: several groups, each with both workspaces.
    const calls: Promise<IngestResult>[] = [];
    for (let wave = 0; wave < 3; wave++) {
      for (const { workspace, input } of both.slice(wave * 27, (wave + 1) * 27)) calls.push(ingest.ingest(workspace, input));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await Promise.all(calls)).every((r) => r.created)).toBe(true);

    const keys = t.app.get(RedisKeys);
    const stream = await eventually("the watched workspace's 80 live events", async () => {
      const found = await t.redis.xrange(keys.key('events', watched.id, 'stream'), '-', '+');
      return found.length >= 80 ? found : undefined;
    });
    const created = stream.filter(([, fields]) => fields[1] === 'message.created').map(([, fields]) => (JSON.parse(fields[3]!) as { content: string }).content);
    expect(created).toHaveLength(40);
    for (const phone of phones) {
      const own = created.filter((content) => content.startsWith(`${phone}-`));
      const order: { content: string }[] = await t.dataSource.query('SELECT content FROM messages WHERE workspace_id = $1 AND content LIKE $2 ORDER BY seq', [
        watched.id,
        `${phone}-%`,
      ]);
      expect(own).toEqual(order.map((row) => row.content));
    }
    // Nothing was built, sent or kept for the workspace nobody watches.
    expect(publish.mock.calls.filter(([workspaceId]) => workspaceId === unwatched.id)).toEqual([]);
    expect(await t.redis.exists(keys.key('events', unwatched.id, 'stream'))).toBe(0);
  });

  it('builds every event when the watch marks cannot be read: the publish script still drops what nobody watches', async () => {
    const live = t.app.get(LiveEventsService);
    const watched = await t.factories.workspace();
    const unwatched = await t.factories.workspace();
    await live.markWatched([watched.id]);
    const failing = jest.spyOn(live, 'watched').mockRejectedValue(new Error('Redis hiccup'));
    spies.push(failing);
    const publish = jest.spyOn(live, 'publishAll');
    spies.push(publish);
    await Promise.all([ingest.ingest(watched.id, inbox.inbound()), ingest.ingest(unwatched.id, inbox.inbound())]);
    await eventually("both workspaces' events", () => publish.mock.calls.length >= 2);
    expect(new Set(publish.mock.calls.map(([workspaceId]) => workspaceId))).toEqual(new Set([watched.id, unwatched.id]));
    await Promise.all(publish.mock.results.map((result) => result.value));
    const keys = t.app.get(RedisKeys);
    expect(await t.redis.xlen(keys.key('events', watched.id, 'stream'))).toBe(2);
    expect(await t.redis.exists(keys.key('events', unwatched.id, 'stream'))).toBe(0);
  });
});
