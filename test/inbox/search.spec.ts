import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SearchRepository } from '../../src/modules/inbox/search/search.repository.js';
import { BAD_LIMIT, BAD_TYPE, Q_REQUIRED, Q_TOO_LONG, Q_TWICE } from '../../src/modules/inbox/search/search.service.js';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';
import { workspaceCallers, type WorkspaceCallers } from './conversation-fixtures.js';

interface Result {
  type: 'message' | 'contact' | 'note';
  id: string;
  conversation_id: string | null;
  contact_id: string | null;
  chat_name: string;
  snippet: string;
  highlights: [number, number][];
  timestamp: string;
  rank: number;
}
interface Page {
  results: Result[];
  next_cursor: string | null;
}

const minutesAgo = (n: number): Date => new Date(Date.now() - n * 60_000);

describe('GET /api/search', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let a: WorkspaceCallers;
  let agent: Caller;
  let agentId: string;
  const ids: Record<string, string> = {};
  const conversations: Record<string, string> = {};
  const greta = randomPhone();

  const search = async (caller: Caller, query: string): Promise<Page> => {
    const res = await call(t, caller, 'get', `/api/search?${query}`);
    expect(res.status).toBe(200);
    return res.body as Page;
  };
  const q = (text: string, extra = ''): string => `q=${encodeURIComponent(text)}${extra}`;
  const marked = (r: Result): string[] => r.highlights.map(([s, e]) => r.snippet.slice(s, e).toLowerCase());

  beforeAll(async () => {
    t = await createTestApp();
    inbox = new InboxFactories(t.app);
    a = await workspaceCallers(t);
    const other = await workspaceCallers(t);
    const member = await t.factories.signedInMember(a.ws.id, 'agent');
    agent = { cookie: member.cookie, workspaceId: a.ws.id };
    agentId = member.id;

    // An unassigned conversation with Greta: three messages about a refund, a file, a long text.
    const contact = { phone: greta, name: 'Greta Lindqvist' };
    const first = await inbox.message(a.ws.id, { phone: greta, contact, content: 'Where is my refund for order 4711?', timestamp: minutesAgo(50) });
    ids.oneRefund = first.message.id;
    conversations.greta = first.conversation.id;
    ids.threeRefunds = (
      await inbox.message(a.ws.id, { phone: greta, contact, content: 'Refund, refund, REFUND please!', timestamp: minutesAgo(60) })
    ).message.id;
    ids.olderOneRefund = (
      await inbox.message(a.ws.id, { phone: greta, contact, content: 'I asked about the refund yesterday', timestamp: minutesAgo(70) })
    ).message.id;
    ids.file = (
      await inbox.message(a.ws.id, {
        phone: greta,
        contact,
        type: 'document',
        content: '',
        media: { mimeType: 'application/pdf', fileName: 'refund-policy.pdf', fileSize: 1200 },
        timestamp: minutesAgo(40),
      })
    ).message.id;
    const long = `${'lorem ipsum dolor sit amet '.repeat(8)}the zebra crossed here ${'consectetur adipiscing elit '.repeat(8)}`;
    ids.long = (await inbox.message(a.ws.id, { phone: greta, contact, content: long, timestamp: minutesAgo(30) })).message.id;
    const note = await call(t, a.ownerCaller, 'post', `/api/conversations/${conversations.greta}/notes`, {
      body: 'Customer wants a refund; call back tomorrow',
    });
    expect(note.status).toBe(201);
    ids.gretaNote = (note.body as { id: string }).id;

    // One conversation assigned to the owner (hidden from the agent), one to the agent.
    const hidden = await inbox.message(a.ws.id, { content: 'secret marmalade recipe', timestamp: minutesAgo(20) });
    conversations.hidden = hidden.conversation.id;
    ids.hiddenMessage = hidden.message.id;
    await call(t, a.ownerCaller, 'post', `/api/conversations/${conversations.hidden}/assign`, { user_id: a.owner.id }).expect(200);
    const hiddenNote = await call(t, a.ownerCaller, 'post', `/api/conversations/${conversations.hidden}/notes`, { body: 'marmalade supplier note' });
    expect(hiddenNote.status).toBe(201);
    ids.hiddenNote = (hiddenNote.body as { id: string }).id;
    const mine = await inbox.message(a.ws.id, { content: 'marmalade for the agent', timestamp: minutesAgo(10) });
    ids.agentsMessage = mine.message.id;
    await call(t, a.ownerCaller, 'post', `/api/conversations/${mine.conversation.id}/assign`, { user_id: member.id }).expect(200);

    // Another workspace's words never show.
    await inbox.message(other.ws.id, { content: 'refund marmalade zebra pagingword', timestamp: minutesAgo(5) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ranks by how often and how closely the words occur, newer first among equals, in one list of every kind', async () => {
    const { results, next_cursor } = await search(a.ownerCaller, q('refund'));
    expect(next_cursor).toBeNull();
    expect(results[0]).toMatchObject({ type: 'message', id: ids.threeRefunds, conversation_id: conversations.greta, chat_name: 'Greta Lindqvist' });
    const found = results.map((r) => r.id);
    expect(found).toEqual(expect.arrayContaining([ids.oneRefund, ids.olderOneRefund, ids.file, ids.gretaNote]));
    expect(found).toHaveLength(5); // nothing from the other workspace
    for (let i = 1; i < results.length; i++) expect(results[i - 1]!.rank).toBeGreaterThanOrEqual(results[i]!.rank);
    // Two messages with one "refund" each rank alike; the newer is first.
    expect(found.indexOf(ids.oneRefund)).toBeLessThan(found.indexOf(ids.olderOneRefund));
    const note = results.find((r) => r.type === 'note')!;
    expect(note).toMatchObject({ conversation_id: conversations.greta, snippet: 'Customer wants a refund; call back tomorrow' });
    expect(typeof note.contact_id).toBe('string');
  });

  it('answers a plain-text snippet with the offsets of every matched word, whatever its case', async () => {
    const { results } = await search(a.ownerCaller, q('refund'));
    const three = results.find((r) => r.id === ids.threeRefunds)!;
    expect(three.snippet).toBe('Refund, refund, REFUND please!');
    expect(three.highlights).toEqual([
      [0, 6],
      [8, 14],
      [16, 22],
    ]);
    for (const r of results) expect(marked(r).every((word) => word.startsWith('refund'))).toBe(true);
    // A file matched by its name shows the name.
    const file = results.find((r) => r.id === ids.file)!;
    expect(file.snippet).toBe('refund-policy.pdf');
    expect(marked(file)).toContain('refund');
  });

  it('cuts a long text to a window around the match, marked with ellipses', async () => {
    const { results } = await search(a.ownerCaller, q('zebra'));
    expect(results).toHaveLength(1);
    const [long] = results;
    expect(long!.id).toBe(ids.long);
    expect(long!.snippet.startsWith('…')).toBe(true);
    expect(long!.snippet.endsWith('…')).toBe(true);
    expect(long!.snippet.length).toBeLessThanOrEqual(162);
    expect(marked(long!)).toEqual(['zebra']);
  });

  it('needs every word, and matches the last one as a prefix while it is typed', async () => {
    expect((await search(a.ownerCaller, q('refund 4711'))).results.map((r) => r.id)).toEqual([ids.oneRefund]);
    const typed = await search(a.ownerCaller, q('where is my refu'));
    expect(typed.results.map((r) => r.id)).toEqual([ids.oneRefund]);
    expect(marked(typed.results[0]!)).toEqual(['where', 'is', 'my', 'refund']);
    // Only the last word is a prefix, and only from 3 characters on.
    expect((await search(a.ownerCaller, q('refu 4711'))).results).toEqual([]);
    expect((await search(a.ownerCaller, q('4711 re'))).results).toEqual([]);
  });

  it('finds contacts by name and by the digits of their phone number', async () => {
    const byName = await search(a.ownerCaller, q('lindqvist', '&type=contacts'));
    expect(byName.results).toHaveLength(1);
    expect(byName.results[0]).toMatchObject({
      type: 'contact',
      conversation_id: conversations.greta,
      chat_name: 'Greta Lindqvist',
      snippet: 'Greta Lindqvist',
    });
    expect(marked(byName.results[0]!)).toEqual(['lindqvist']);
    const formatted = `+${greta.slice(0, 3)} ${greta.slice(3, 7)}-${greta.slice(7)}`;
    const byPhone = await search(a.ownerCaller, q(formatted));
    expect(byPhone.results[0]).toMatchObject({ type: 'contact', id: byName.results[0]!.id, snippet: greta, highlights: [[0, greta.length]], rank: 1 });
  });

  it('limits to one kind with type', async () => {
    expect((await search(a.ownerCaller, q('refund', '&type=notes'))).results.map((r) => r.id)).toEqual([ids.gretaNote]);
    const messages = await search(a.ownerCaller, q('refund', '&type=messages'));
    expect(messages.results.every((r) => r.type === 'message')).toBe(true);
    expect(messages.results).toHaveLength(4);
  });

  it('pages through every hit exactly once, in the order of one long page', async () => {
    const phone = randomPhone();
    for (let i = 0; i < 23; i++) {
      const words = i % 3 === 0 ? 'pagingword pagingword' : 'pagingword';
      await inbox.message(a.ws.id, { phone, content: `${words} number ${i}`, timestamp: minutesAgo(100 + (i % 5)) });
    }
    const whole = await search(a.ownerCaller, q('pagingword', '&limit=50'));
    expect(whole.results).toHaveLength(23);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page = await search(a.ownerCaller, q('pagingword', `&limit=5${cursor ? `&cursor=${cursor}` : ''}`));
      expect(page.results.length).toBeLessThanOrEqual(5);
      seen.push(...page.results.map((r) => r.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(23);
    expect(seen).toEqual(whole.results.map((r) => r.id));
  });

  it('ranks the newest 1,000 matching messages: older ones are not returned, however well they would rank', async () => {
    const phone = randomPhone();
    const start = Date.now() - 30 * 86_400_000;
    // Five old messages that would rank on top (the word three times), then 1,000 newer ones.
    const batch = Array.from({ length: 1005 }, (_, i) =>
      inbox.inbound({ phone, content: i < 5 ? 'windowword windowword windowword' : `windowword ${i}`, timestamp: new Date(start + i * 1000) }),
    );
    await inbox.ingest.ingestBatch(a.ws.id, batch);
    const seen: Result[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await search(a.ownerCaller, q('windowword', `&type=messages&limit=50${cursor ? `&cursor=${cursor}` : ''}`));
      seen.push(...page.results);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(1000);
    expect(new Set(seen.map((r) => r.id)).size).toBe(1000);
    expect(seen.some((r) => r.snippet === 'windowword windowword windowword')).toBe(false);
    expect(seen[0]!.snippet).toBe('windowword 1004');
  });

  it("shows an agent only what they see: never a hidden conversation's messages or notes", async () => {
    const owners = (await search(a.ownerCaller, q('marmalade'))).results.map((r) => r.id);
    expect(owners).toEqual(expect.arrayContaining([ids.hiddenMessage, ids.hiddenNote, ids.agentsMessage]));
    expect(owners).toHaveLength(3);
    const keys = (await search(a.keyCaller, q('marmalade'))).results.map((r) => r.id);
    expect(keys.sort()).toEqual([...owners].sort());

    const agents = await search(agent, q('marmalade'));
    expect(agents.results.map((r) => r.id)).toEqual([ids.agentsMessage]);
    expect((await search(agent, q('supplier', '&type=notes'))).results).toEqual([]);
    // Unassigned conversations stay visible to the agent, notes included.
    expect((await search(agent, q('tomorrow'))).results.map((r) => r.id)).toEqual([ids.gretaNote]);
  });

  it('finds the same messages in the same order whichever way it reads them (the index, or newest first for a common word)', async () => {
    const repository = t.app.get(SearchRepository);
    const now = String(BigInt(Date.now() + 60_000) * 1000n);
    for (const [tsquery, viewer] of [
      ["'refund'", null],
      ["'pagingword'", null],
      ["'marmalade'", null],
      ["'marmalade'", agentId],
      ["'where' & 'refu':*", null],
    ] as const) {
      const params = { viewer, tsquery, phone: '', after: null, asOf: now, limit: 51 };
      const viaIndex = await repository.messages(a.ws.id, params, 'index');
      const newestFirst = await repository.messages(a.ws.id, params, 'recent');
      expect(newestFirst.map((r) => r.id)).toEqual(viaIndex.map((r) => r.id));
      expect(viaIndex.length).toBeGreaterThan(0);
    }
  });

  it('answers a read-only key (a member route)', async () => {
    const key = await t.factories.apiKey(a.ws.id, 'read');
    expect((await search({ key: key.key }, q('refund', '&type=notes'))).results.map((r) => r.id)).toEqual([ids.gretaNote]);
  });

  it('answers words it finds nowhere, or only punctuation, with no results', async () => {
    expect(await search(a.ownerCaller, q('nothingmatchesthis'))).toEqual({ results: [], next_cursor: null });
    expect(await search(a.ownerCaller, q('?!'))).toEqual({ results: [], next_cursor: null });
  });

  const bad: [string, string, string][] = [
    ['no q', '', Q_REQUIRED],
    ['an empty q', 'q=', Q_REQUIRED],
    ['a q of spaces', 'q=%20%20%20', Q_REQUIRED],
    ['a q over 200 characters', `q=${'a'.repeat(201)}`, Q_TOO_LONG],
    ['q twice', 'q=a&q=b', Q_TWICE],
    ['an unknown type', 'q=refund&type=files', BAD_TYPE],
    ['an empty type', 'q=refund&type=', BAD_TYPE],
    ['limit 0', 'q=refund&limit=0', BAD_LIMIT],
    ['limit 51', 'q=refund&limit=51', BAD_LIMIT],
    ['limit abc', 'q=refund&limit=abc', BAD_LIMIT],
    ['an empty limit', 'q=refund&limit=', BAD_LIMIT],
    ['a cursor of garbage', 'q=refund&cursor=%25%25', 'invalid cursor'],
    ['an empty cursor', 'q=refund&cursor=', 'invalid cursor'],
    ['a cursor that decodes to nonsense', `q=refund&cursor=${Buffer.from('2:1:3:x').toString('base64url')}`, 'invalid cursor'],
    ['a cursor with a wrong rank', `q=refund&cursor=${Buffer.from('NaN:1:3:00000000-0000-4000-8000-000000000000').toString('base64url')}`, 'invalid cursor'],
  ];
  it.each(bad)('answers %s with 400', async (_label, query, text) => {
    const res = await call(t, a.ownerCaller, 'get', `/api/search?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: text });
  });

  it('accepts 200 characters after trimming', async () => {
    const res = await call(t, a.ownerCaller, 'get', `/api/search?q=${encodeURIComponent(` ${'b'.repeat(200)} `)}`);
    expect(res.status).toBe(200);
  });
});
