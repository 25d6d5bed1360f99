import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { call } from '../inbox/inbox-http.js';
import { TEMPLATE_TOO_LONG } from '../../src/modules/inbox/messages/message-templates.js';
import type { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import type { InboxFactories } from '../support/inbox-factories.js';
import type { TestApp } from '../support/test-app.js';
import { type ContentWorkspace, contentWorkspace, createContentApp } from './content-support.js';

const NO_ADMIN_KEYS = { error: 'API keys cannot administer workspaces' };
const ADMIN_REQUIRED = { error: 'admin required' };
const TEMPLATE_KEYS = ['body', 'category', 'id', 'language', 'name', 'provider_id', 'quality', 'status'];
const BAD_PARAMETERS = 'parameters must be an array of at most 100 strings of at most 1024 characters';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('templates', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;

  beforeAll(async () => {
    ({ t, inbox, gateway } = await createContentApp());
  });
  afterAll(async () => {
    await t?.close();
  });

  let ws: ContentWorkspace;
  beforeEach(async () => {
    gateway.reset();
    ws = await contentWorkspace(t);
  });

  const create = (body: object, caller = ws.owner) => call(t, caller, 'post', '/api/templates', body);

  describe('access', () => {
    it('lets keys and agents list, and only owners and admins in the Console write', async () => {
      const created = await create({ name: 'welcome', body: 'Hi {{1}}' });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      for (const caller of [ws.readKey, ws.key, ws.agent, ws.admin]) {
        const res = await call(t, caller, 'get', '/api/templates');
        expect(res.status).toBe(200);
        expect(res.body).toHaveLength(1);
      }
      const writes: ['post' | 'patch' | 'delete', string, object][] = [
        ['post', '/api/templates', { name: 'other', body: 'x' }],
        ['post', '/api/templates/sync', {}],
        ['patch', `/api/templates/${id}`, { body: 'changed' }],
        ['delete', `/api/templates/${id}`, {}],
      ];
      for (const [method, path, body] of writes) {
        for (const key of [ws.key, ws.readKey]) {
          const res = await call(t, key, method, path, body);
          expect({ path, method, status: res.status, body: res.body }).toEqual({ path, method, status: 403, body: NO_ADMIN_KEYS });
        }
        const res = await call(t, ws.agent, method, path, body);
        expect({ path, method, status: res.status, body: res.body }).toEqual({ path, method, status: 403, body: ADMIN_REQUIRED });
      }
      // Nothing changed.
      const after = await call(t, ws.owner, 'get', '/api/templates');
      expect(after.body).toEqual([created.body]);
      const byAdmin = await create({ name: 'by_admin', body: 'ok' }, ws.admin);
      expect(byAdmin.status).toBe(201);
    });
  });

  describe('local templates (scan workspace)', () => {
    // The shape: docs/content.md#templates.
    it('creates one with the defaults and answers the api.md shape', async () => {
      const res = await create({ name: ' order_update ', body: 'Hello {{1}}, order {{2}} has shipped.' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(TEMPLATE_KEYS);
      expect(res.body).toMatchObject({
        name: 'order_update',
        language: 'en',
        category: 'UTILITY',
        body: 'Hello {{1}}, order {{2}} has shipped.',
        status: null,
        quality: null,
        provider_id: null,
      });
      const explicit = await create({ name: 'promo', language: 'pt_BR', category: 'marketing', body: 'Oi' });
      expect(explicit.body).toMatchObject({ language: 'pt_BR', category: 'MARKETING' });
    });

    it('refuses bad input with a sentence naming the problem', async () => {
      const cases: [object, string][] = [
        [{ body: 'x' }, 'name is required (1 to 512 characters)'],
        [{ name: '   ', body: 'x' }, 'name is required (1 to 512 characters)'],
        [{ name: 'a'.repeat(513), body: 'x' }, 'name is required (1 to 512 characters)'],
        [{ name: 'n' }, 'body is required (1 to 1024 characters)'],
        [{ name: 'n', body: 'x'.repeat(1025) }, 'body is required (1 to 1024 characters)'],
        [{ name: 'n', body: 42 }, 'body is required (1 to 1024 characters)'],
        [{ name: 'n', body: 'x', language: 'english please' }, 'language must be a language code such as en, en_US or pt_BR'],
        [{ name: 'n', body: 'x', category: 'SPAM' }, 'category must be MARKETING, UTILITY or AUTHENTICATION'],
        [{ name: 'n', body: 'Hi {{1}} and {{3}}' }, 'template parameters must be numbered {{1}} to {{2}} without gaps'],
        [{ name: 'n', body: 'Hi {{first_name}}' }, 'template parameters must be numbered: {{1}}, {{2}}, …'],
      ];
      for (const [body, error] of cases) {
        const res = await create(body);
        expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error });
      }
      expect((await call(t, ws.owner, 'get', '/api/templates')).body).toEqual([]);
    });

    it('keeps name and language unique per workspace', async () => {
      expect((await create({ name: 'hello', body: 'Hello' })).status).toBe(201);
      const again = await create({ name: 'hello', body: 'Hello again' });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: 'a template with this name and language already exists' });
      expect((await create({ name: 'hello', language: 'de', body: 'Hallo' })).status).toBe(201);
      // Another workspace may use the same name.
      const other = await contentWorkspace(t);
      expect((await create({ name: 'hello', body: 'Hello' }, other.owner)).status).toBe(201);
    });

    it('changes the fields present, checks the body, and deletes once', async () => {
      const { body: created } = await create({ name: 'greet', body: 'Hi {{1}}' });
      const patched = await call(t, ws.admin, 'patch', `/api/templates/${created.id}`, { body: 'Hello {{1}}, {{2}}', category: 'marketing' });
      expect(patched.status).toBe(200);
      expect(patched.body).toEqual({ ...created, body: 'Hello {{1}}, {{2}}', category: 'MARKETING' });
      const gap = await call(t, ws.owner, 'patch', `/api/templates/${created.id}`, { body: 'Hello {{2}}' });
      expect(gap.status).toBe(400);
      await create({ name: 'taken', body: 'x' });
      const clash = await call(t, ws.owner, 'patch', `/api/templates/${created.id}`, { name: 'taken' });
      expect(clash.status).toBe(409);

      expect((await call(t, ws.owner, 'delete', `/api/templates/${created.id}`)).body).toEqual({ ok: true });
      const again = await call(t, ws.owner, 'delete', `/api/templates/${created.id}`);
      expect({ status: again.status, body: again.body }).toEqual({ status: 404, body: { error: 'template not found' } });
      expect((await call(t, ws.owner, 'patch', `/api/templates/${created.id}`, { body: 'x' })).status).toBe(404);
      expect((await call(t, ws.owner, 'patch', '/api/templates/nope', { body: 'x' })).body).toEqual({ error: 'invalid template id' });
      expect((await call(t, ws.owner, 'delete', '/api/templates/nope')).body).toEqual({ error: 'invalid template id' });
    });

    it("answers another workspace's template exactly like a missing one", async () => {
      const { body: mine } = await create({ name: 'mine', body: 'x' });
      const other = await contentWorkspace(t);
      for (const [method, body] of [
        ['patch', { body: 'y' }],
        ['delete', {}],
      ] as const) {
        const res = await call(t, other.owner, method, `/api/templates/${mine.id}`, body);
        expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { error: 'template not found' } });
      }
      expect((await call(t, other.owner, 'get', '/api/templates')).body).toEqual([]);
      expect((await call(t, ws.owner, 'get', '/api/templates')).body).toEqual([mine]);
    });

    it('lists the 500 newest, newest first', async () => {
      // 501 rows a second apart, oldest first; written directly to keep the test fast.
      await t.dataSource.query(
        `INSERT INTO templates (workspace_id, name, language, category, body, created_at)
         SELECT $1, 't' || i, 'en', 'UTILITY', 'body ' || i, now() - (501 - i) * interval '1 second' FROM generate_series(1, 501) AS i`,
        [ws.workspaceId],
      );
      const res = await call(t, ws.key, 'get', '/api/templates');
      expect(res.status).toBe(200);
      const names = (res.body as { name: string }[]).map((template) => template.name);
      expect(names).toHaveLength(500);
      expect(names[0]).toBe('t501');
      expect(names[499]).toBe('t2');
      expect(names).not.toContain('t1');
    });
  });

  describe('sending a template', () => {
    async function scanConversation() {
      const conversation = await inbox.conversation(ws.workspaceId);
      gateway.connect(ws.workspaceId);
      return conversation;
    }
    const send = (conversationId: string, body: object, caller = ws.key) => call(t, caller, 'post', `/api/conversations/${conversationId}/messages`, body);

    it('fills the parameters in and sends the text on a scan conversation', async () => {
      const conversation = await scanConversation();
      const { body: template } = await create({ name: 'shipped', body: 'Hello {{1}}, order {{2}} ships {{1}}!' });
      const res = await send(conversation.id, { type: 'template', template_id: template.id, parameters: ['Ada', '{{2}}'] });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ direction: 'outbound', message_type: 'text', content: 'Hello Ada, order {{2}} ships Ada!', status: 'sent' });
      expect(gateway.sent.map((s) => s.outgoing)).toEqual([{ type: 'text', body: 'Hello Ada, order {{2}} ships Ada!', messageId: res.body.id }]);
      // A template without parameters needs none.
      const { body: plain } = await create({ name: 'thanks', body: 'Thank you!' });
      expect((await send(conversation.id, { type: 'template', template_id: plain.id })).body.content).toBe('Thank you!');
    });

    it('refuses missing, empty or extra parameters with 400 and sends nothing', async () => {
      const conversation = await scanConversation();
      const { body: template } = await create({ name: 'two', body: 'Hi {{1}}, your code is {{2}}' });
      const cases: [object, number, string][] = [
        [{ parameters: ['Ada'] }, 400, 'template parameter {{2}} is missing (the template takes 2)'],
        [{}, 400, 'template parameter {{1}} is missing (the template takes 2)'],
        [{ parameters: ['Ada', '  '] }, 400, 'template parameter {{2}} is empty'],
        [{ parameters: ['a', 'b', 'c'] }, 400, 'the template takes 2 parameters, 3 were given'],
        [{ parameters: 'Ada' }, 400, BAD_PARAMETERS],
        [{ parameters: ['Ada', 7] }, 400, BAD_PARAMETERS],
        [{ parameters: ['Ada', 'x'.repeat(1025)] }, 400, BAD_PARAMETERS],
        [{ parameters: Array.from({ length: 101 }, () => 'x') }, 400, BAD_PARAMETERS],
      ];
      for (const [extra, status, error] of cases) {
        const res = await send(conversation.id, { type: 'template', template_id: template.id, ...extra });
        expect({ extra, status: res.status, error: res.body.error }).toEqual({ extra, status, error });
      }
      const refs: [object, number, string][] = [
        [{ type: 'template' }, 400, 'template_id is required for template messages'],
        [{ type: 'template', template_id: 'nope' }, 400, 'invalid template id'],
        [{ type: 'template', template_id: MISSING_ID }, 404, 'template not found'],
        [{ type: 'poll' }, 400, 'type must be one of text, image, document, video, audio, voice, sticker, location, contacts, template, interactive, reaction'],
      ];
      for (const [body, status, error] of refs) {
        const res = await send(conversation.id, body);
        expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status, error });
      }
      expect(gateway.sent).toEqual([]);
      expect(await inbox.count(`messages WHERE workspace_id = $1 AND direction = 'outbound'`, [ws.workspaceId])).toBe(0);
    });

    it('holds the filled-in text to the 65,536 characters of a text message', async () => {
      const conversation = await scanConversation();
      const placeholders = (n: number): string => Array.from({ length: n }, (_, i) => `{{${i + 1}}}`).join('');
      const { body: wide } = await create({ name: 'wide', body: placeholders(100) });
      const tooLong = await send(conversation.id, { type: 'template', template_id: wide.id, parameters: Array.from({ length: 100 }, () => 'x'.repeat(1024)) });
      expect([tooLong.status, tooLong.body.error]).toEqual([400, TEMPLATE_TOO_LONG]);
      expect(gateway.sent).toEqual([]);
      // Exactly at the limit: sent.
      const { body: full } = await create({ name: 'full', body: placeholders(64) });
      const atLimit = await send(conversation.id, { type: 'template', template_id: full.id, parameters: Array.from({ length: 64 }, () => 'y'.repeat(1024)) });
      expect([atLimit.status, atLimit.body.content?.length]).toEqual([201, 65_536]);
    });

    it("cannot send another workspace's template", async () => {
      const conversation = await scanConversation();
      const other = await contentWorkspace(t);
      const { body: theirs } = await create({ name: 'theirs', body: 'secret' }, other.owner);
      const res = await send(conversation.id, { type: 'template', template_id: theirs.id });
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { error: 'template not found' } });
    });
  });
});
