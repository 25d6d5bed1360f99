import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { call } from '../inbox/inbox-http.js';
import type { TestApp } from '../support/test-app.js';
import { type ContentWorkspace, contentWorkspace, createContentApp } from './content-support.js';

const ARTICLE_KEYS = ['body', 'created_at', 'id', 'title', 'updated_at'];

/** A small help centre: two articles about refunds (one in its title), and others that are not. */
const CORPUS = [
  { title: 'Refund policy', body: 'You can ask for a refund within 30 days of purchase. Refunds go back to the original payment method.' },
  { title: 'Shipping times', body: 'Orders ship within 2 business days. Delivery takes 3 to 5 days. We ship worldwide.' },
  { title: 'Opening hours', body: 'Our shop is open Monday to Friday from 9 to 17. On Saturday we open at 10.' },
  { title: 'Returns', body: 'To return an item, send it back within 30 days. A refund follows once we receive it.' },
  { title: 'Payment methods', body: 'We accept credit cards, PayPal and bank transfer.' },
];

describe('knowledge articles', () => {
  let t: TestApp;
  let ws: ContentWorkspace;

  beforeAll(async () => {
    ({ t } = await createContentApp());
  });
  beforeEach(async () => {
    ws = await contentWorkspace(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (body: object, caller = ws.owner) => call(t, caller, 'post', '/api/knowledge', body);
  const search = (q: string, caller = ws.key) => call(t, caller, 'get', `/api/knowledge/search?q=${encodeURIComponent(q)}`);
  const seed = async () => {
    const ids: Record<string, string> = {};
    for (const article of CORPUS) ids[article.title] = (await create(article)).body.id as string;
    return ids;
  };

  it('creates, changes and deletes articles (Console owners and admins only)', async () => {
    const res = await create({ title: '  Refund policy ', body: 'Within 30 days.' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(ARTICLE_KEYS);
    expect(res.body).toMatchObject({ title: 'Refund policy', body: 'Within 30 days.' });
    const id = res.body.id as string;

    for (const caller of [ws.key, ws.readKey]) {
      expect((await create({ title: 'x', body: 'y' }, caller)).body).toEqual({ error: 'API keys cannot administer workspaces' });
      expect((await call(t, caller, 'patch', `/api/knowledge/${id}`, { body: 'z' })).status).toBe(403);
      expect((await call(t, caller, 'delete', `/api/knowledge/${id}`)).body).toEqual({ error: 'API keys cannot administer workspaces' });
    }
    expect((await create({ title: 'x', body: 'y' }, ws.agent)).body).toEqual({ error: 'admin required' });
    expect((await call(t, ws.agent, 'patch', `/api/knowledge/${id}`, { body: 'z' })).body).toEqual({ error: 'admin required' });
    expect((await call(t, ws.agent, 'delete', `/api/knowledge/${id}`)).body).toEqual({ error: 'admin required' });

    const patched = await call(t, ws.admin, 'patch', `/api/knowledge/${id}`, { body: 'Within 60 days.' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, title: 'Refund policy', body: 'Within 60 days.', created_at: res.body.created_at });
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(res.body.updated_at));

    // Members read.
    for (const caller of [ws.readKey, ws.agent]) expect((await call(t, caller, 'get', '/api/knowledge')).body).toEqual([patched.body]);

    expect((await call(t, ws.owner, 'delete', `/api/knowledge/${id}`)).body).toEqual({ ok: true });
    const again = await call(t, ws.owner, 'delete', `/api/knowledge/${id}`);
    expect({ status: again.status, body: again.body }).toEqual({ status: 404, body: { error: 'knowledge article not found' } });
    expect((await call(t, ws.owner, 'patch', `/api/knowledge/${id}`, { title: 'x' })).status).toBe(404);
    expect((await call(t, ws.owner, 'delete', '/api/knowledge/1')).body).toEqual({ error: 'invalid knowledge article id' });
  });

  it('refuses bad input', async () => {
    const cases: [object, string][] = [
      [{ body: 'x' }, 'title is required (1 to 200 characters)'],
      [{ title: ' ', body: 'x' }, 'title is required (1 to 200 characters)'],
      [{ title: 'x'.repeat(201), body: 'x' }, 'title is required (1 to 200 characters)'],
      [{ title: 'x' }, 'body is required (1 to 20000 characters)'],
      [{ title: 'x', body: ['y'] }, 'body is required (1 to 20000 characters)'],
      [{ title: 'x', body: 'y'.repeat(20_001) }, 'body is required (1 to 20000 characters)'],
    ];
    for (const [body, error] of cases) {
      const res = await create(body);
      expect({ body: Object.keys(body), status: res.status, error: res.body.error }).toEqual({ body: Object.keys(body), status: 400, error });
    }
    expect((await call(t, ws.owner, 'get', '/api/knowledge')).body).toEqual([]);
  });

  it("keeps workspaces apart: another workspace's article is missing, and never found", async () => {
    const { body: mine } = await create({ title: 'Refund policy', body: 'Within 30 days.' });
    const other = await contentWorkspace(t);
    expect((await call(t, other.owner, 'patch', `/api/knowledge/${mine.id}`, { title: 'x' })).body).toEqual({ error: 'knowledge article not found' });
    expect((await call(t, other.owner, 'delete', `/api/knowledge/${mine.id}`)).status).toBe(404);
    expect((await search('refund', other.key)).body).toEqual([]);
    expect((await search('refund')).body).toHaveLength(1);
  });

  it('lists the 500 newest, newest first', async () => {
    await t.dataSource.query(
      `INSERT INTO knowledge_articles (workspace_id, title, body, created_at)
       SELECT $1, 'a' || i, 'body', now() - (501 - i) * interval '1 second' FROM generate_series(1, 501) AS i`,
      [ws.workspaceId],
    );
    const titles = ((await call(t, ws.key, 'get', '/api/knowledge')).body as { title: string }[]).map((a) => a.title);
    expect(titles).toHaveLength(500);
    expect(titles[0]).toBe('a501');
    expect(titles[499]).toBe('a2');
  });

  describe('search', () => {
    it('ranks a title match above a body match, best first, with ranks between 0 and 1', async () => {
      const ids = await seed();
      const res = await search('refunds');
      expect(res.status).toBe(200);
      const hits = res.body as { id: string; title: string; body: string; rank: number }[];
      expect(hits.map((hit) => hit.id)).toEqual([ids['Refund policy'], ids.Returns]);
      expect(Object.keys(hits[0]!).sort()).toEqual(['body', 'id', 'rank', 'title']);
      expect(hits[0]!.rank).toBeGreaterThan(hits[1]!.rank);
      for (const hit of hits) expect(hit.rank).toBeGreaterThan(0);
      for (const hit of hits) expect(hit.rank).toBeLessThan(1);
      // Stemming: "shipped" finds "ship".
      expect(((await search('shipped')).body as { id: string }[]).map((hit) => hit.id)).toEqual([ids['Shipping times']]);
    });

    it('understands the search-box syntax: all words, phrases, or, minus', async () => {
      const ids = await seed();
      const titlesOf = async (q: string) => ((await search(q)).body as { id: string }[]).map((hit) => hit.id).sort();
      expect(await titlesOf('refund days')).toEqual([ids['Refund policy'], ids.Returns].sort());
      expect(await titlesOf('refund -return')).toEqual([ids['Refund policy']]);
      expect(await titlesOf('"bank transfer"')).toEqual([ids['Payment methods']]);
      expect(await titlesOf('"transfer bank"')).toEqual([]);
      expect(await titlesOf('paypal or saturday')).toEqual([ids['Payment methods'], ids['Opening hours']].sort());
      expect(await titlesOf('the and of')).toEqual([]);
      expect(await titlesOf('unicorn')).toEqual([]);
    });

    it('answers at most 10, and follows changes to an article', async () => {
      for (let i = 0; i < 12; i++) await create({ title: `Voucher ${i}`, body: 'Vouchers are valid for a year.' });
      expect((await search('voucher')).body).toHaveLength(10);

      const { body: article } = await create({ title: 'Gift cards', body: 'Plastic cards.' });
      await call(t, ws.owner, 'patch', `/api/knowledge/${article.id}`, { body: 'Gift cards can be redeemed online.' });
      expect(((await search('redeemed')).body as { id: string }[]).map((hit) => hit.id)).toEqual([article.id]);
      expect((await search('plastic')).body).toEqual([]);
    });

    it('needs q', async () => {
      for (const path of ['/api/knowledge/search', '/api/knowledge/search?q=', '/api/knowledge/search?q=%20%20']) {
        const res = await call(t, ws.key, 'get', path);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: { error: 'q is required: the words to search for' } });
      }
      const twice = await call(t, ws.key, 'get', '/api/knowledge/search?q=refund&q=order');
      expect([twice.status, twice.body]).toEqual([400, { error: 'q must be given once, as text' }]);
      // Hostile queries are just text.
      for (const q of ["'; DROP TABLE knowledge_articles; --", '!!! & | <-> :*', '"unbalanced', 'x'.repeat(5000), '\u{1F600} émoji']) {
        expect((await search(q)).status).toBe(200);
      }
    });
  });
});
