import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { type InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import type { TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';

/** Issue 34, items 1 and 2: `content` as an alias of `body`; starting a conversation without a message. */
const DIFFER = 'body and content differ: they are the same field (content is an alias of body), send one of them';

describe('sending: content as an alias of body, and conversations started without a message', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;

  beforeAll(async () => {
    ({ t, inbox, gateway } = await createInboxTestApp());
  });
  beforeEach(() => gateway.reset());
  afterAll(async () => {
    await t?.close();
  });

  async function connected(): Promise<{ workspaceId: string; caller: Caller }> {
    const { workspace, key } = await t.factories.workspaceWithOwner();
    gateway.connect(workspace.id);
    return { workspaceId: workspace.id, caller: { key } };
  }

  const countOf = async (sql: string, workspaceId: string): Promise<number> => ((await t.dataSource.query(sql, [workspaceId])) as { n: number }[])[0]!.n;

  describe('content as an alias of body', () => {
    it('sends `content` as the text, and `body` and `content` together when they are the same', async () => {
      const { workspaceId, caller } = await connected();
      const conversation = await inbox.conversation(workspaceId);
      const path = `/api/conversations/${conversation.id}/messages`;
      const alias = await call(t, caller, 'post', path, { content: '  written as content  ' });
      expect(alias.status).toBe(201);
      expect(alias.body).toMatchObject({ direction: 'outbound', message_type: 'text', content: 'written as content', status: 'sent' });
      expect(gateway.sent[0]!.outgoing).toEqual({ type: 'text', body: 'written as content', messageId: alias.body.id });

      const both = await call(t, caller, 'post', path, { type: 'text', body: 'same text', content: 'same text' });
      expect([both.status, both.body.content]).toEqual([201, 'same text']);
      expect(gateway.sent).toHaveLength(2);
    });

    it('refuses body and content that differ, naming both, before anything is looked up or stored', async () => {
      const { workspaceId, caller } = await connected();
      const conversation = await inbox.conversation(workspaceId);
      const path = `/api/conversations/${conversation.id}/messages`;
      const before = await countOf('SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1', workspaceId);
      const cases: [string, object][] = [
        [path, { body: 'one', content: 'two' }],
        [path, { body: 'hi', content: 'hi ' }],
        [path, { body: '', content: 'text' }],
        [path, { type: 'image', media: { url: 'https://example.test/a.png' }, body: 'one', content: 'two' }],
        [path, { type: 'template', template_id: '00000000-0000-4000-8000-000000000000', body: 'one', content: 'two' }],
        // Validation comes before the conversation: an unknown one is still the 400.
        ['/api/conversations/00000000-0000-4000-8000-000000000000/messages', { body: 'one', content: 'two' }],
      ];
      for (const [target, body] of cases) {
        const res = await call(t, caller, 'post', target, body);
        expect([body, res.status, res.body]).toEqual([body, 400, { error: DIFFER }]);
      }
      expect(gateway.sent).toHaveLength(0);
      expect(await countOf('SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1', workspaceId)).toBe(before);
    });

    it('validates `content` like `body`', async () => {
      const { workspaceId, caller } = await connected();
      const conversation = await inbox.conversation(workspaceId);
      const path = `/api/conversations/${conversation.id}/messages`;
      const cases: [object, string][] = [
        [{ content: '   ' }, 'message body is required'],
        [{ content: 42 }, 'content must be a string'],
        // null is a value, not "left out": refused like any other non-string, even beside a body.
        [{ content: null }, 'content must be a string'],
        [{ body: 'hello', content: null }, 'content must be a string'],
        [{ body: null, content: 'hello' }, 'body must be a string'],
        [{ content: 'x'.repeat(65_537) }, 'content must be shorter than or equal to 65536 characters'],
      ];
      for (const [body, error] of cases) {
        const res = await call(t, caller, 'post', path, body);
        expect([body, res.status, res.body.error]).toEqual([body, 400, error]);
      }
      expect(gateway.sent).toHaveLength(0);
    });

    it('starts a conversation with `content` as its first message; a failed send is still the 502 with the conversation', async () => {
      const { caller } = await connected();
      const phone = randomPhone();
      const res = await call(t, caller, 'post', '/api/conversations', { phone, content: 'Hi, as content' });
      expect(res.status).toBe(201);
      expect(res.body.message).toMatchObject({ conversation_id: res.body.conversation.id, content: 'Hi, as content', status: 'sent' });
      expect(res.body.conversation).toMatchObject({ chat_phone: phone, last_message_preview: 'Hi, as content' });

      const differ = await call(t, caller, 'post', '/api/conversations', { phone: randomPhone(), body: 'one', content: 'two' });
      expect([differ.status, differ.body]).toEqual([400, { error: DIFFER }]);

      gateway.failWith('number rejected by the channel');
      const other = randomPhone();
      const failed = await call(t, caller, 'post', '/api/conversations', { phone: other, content: 'hello' });
      expect(failed.status).toBe(502);
      expect(failed.body.error).toBe('number rejected by the channel');
      expect(failed.body.conversation).toMatchObject({ chat_phone: other });
    });
  });

  describe('starting a conversation without a message', () => {
    it('creates the conversation and its contact, sends nothing, answers message null; a text follows later', async () => {
      const { workspaceId, caller } = await connected();
      const phone = randomPhone();
      const res = await call(t, caller, 'post', '/api/conversations', { phone: `+${phone}` });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['conversation', 'message']);
      expect(res.body.message).toBeNull();
      expect(res.body.conversation).toMatchObject({
        channel: 'scan',
        chat_jid: `${phone}@s.whatsapp.net`,
        chat_phone: phone,
        unread_count: 0,
        last_message_preview: '',
      });
      expect(gateway.sent).toHaveLength(0);
      const id = res.body.conversation.id as string;
      const [contact] = await t.dataSource.query('SELECT id, phone FROM contacts WHERE workspace_id = $1', [workspaceId]);
      expect(contact).toEqual({ id: res.body.conversation.contact_id, phone });
      expect((await call(t, caller, 'get', `/api/conversations/${id}/messages`)).body).toEqual({ messages: [], next_cursor: null });
      expect((await call(t, caller, 'get', '/api/conversations')).body.map((c: { id: string }) => c.id)).toContain(id);

      // Again with the same number: the same conversation, still nothing sent.
      const again = await call(t, caller, 'post', '/api/conversations', { phone });
      expect([again.status, again.body.conversation.id, again.body.message]).toEqual([201, id, null]);
      expect(await countOf('SELECT count(*)::int AS n FROM conversations WHERE workspace_id = $1', workspaceId)).toBe(1);

      const later = await call(t, caller, 'post', `/api/conversations/${id}/messages`, { body: 'the first message, later' });
      expect([later.status, later.body.conversation_id]).toEqual([201, id]);
      expect(gateway.sent).toHaveLength(1);
    });

    it('still needs a connected channel, a valid number, and a text that is not blank when one is given', async () => {
      const { workspace, key } = await t.factories.workspaceWithOwner();
      const caller: Caller = { key };
      const noChannel = await call(t, caller, 'post', '/api/conversations', { phone: randomPhone() });
      expect([noChannel.status, noChannel.body]).toEqual([409, { error: 'chat is not connected' }]);
      expect(await countOf('SELECT count(*)::int AS n FROM conversations WHERE workspace_id = $1', workspace.id)).toBe(0);

      gateway.connect(workspace.id);
      expect((await call(t, caller, 'post', '/api/conversations', { phone: 'call me' })).body).toEqual({ error: 'invalid phone number' });
      for (const text of [{ body: '' }, { body: '  ' }, { content: '' }]) {
        const blank = await call(t, caller, 'post', '/api/conversations', { phone: randomPhone(), ...text });
        expect([text, blank.status, blank.body]).toEqual([text, 400, { error: 'message body is required' }]);
      }
      expect(await countOf('SELECT count(*)::int AS n FROM conversations WHERE workspace_id = $1', workspace.id)).toBe(0);
    });

    it('answers an agent 404 for a number whose chat is assigned to someone else, without a message too', async () => {
      const { workspace, owner, key } = await t.factories.workspaceWithOwner();
      gateway.connect(workspace.id);
      const agent = await t.factories.signedInMember(workspace.id, 'agent');
      const phone = randomPhone();
      const started = await call(t, { key }, 'post', '/api/conversations', { phone });
      const assigned = await call(t, { cookie: owner.cookie, workspaceId: workspace.id }, 'post', `/api/conversations/${started.body.conversation.id}/assign`, {
        user_id: owner.id,
      });
      expect(assigned.status).toBe(200);
      const hidden = await call(t, { cookie: agent.cookie, workspaceId: workspace.id }, 'post', '/api/conversations', { phone });
      expect([hidden.status, hidden.body]).toEqual([404, { error: 'conversation not found' }]);
    });
  });
});
