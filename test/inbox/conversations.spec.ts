import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { type InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import type { TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';

const CONVERSATION_KEYS = [
  'assignee_id',
  'channel',
  'chat_jid',
  'chat_name',
  'chat_phone',
  'contact_id',
  'id',
  'is_group',
  'last_message_at',
  'last_message_preview',
  'status',
  'unread_count',
];
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('conversations', () => {
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

  async function setup() {
    const { workspace, owner, key } = await t.factories.workspaceWithOwner();
    const ownerCaller: Caller = { cookie: owner.cookie, workspaceId: workspace.id };
    return { ws: workspace, owner, ownerCaller, keyCaller: { key } as Caller };
  }

  describe('list', () => {
    it('answers the conversations most recent first, in the documented shape', async () => {
      const { ws, keyCaller } = await setup();
      const now = Date.now();
      const a = await inbox.conversation(ws.id, { timestamp: new Date(now - 3000), senderName: 'A' });
      const b = await inbox.conversation(ws.id, { timestamp: new Date(now - 2000) });
      const c = await inbox.conversation(ws.id, { timestamp: new Date(now - 1000) });
      // A new message moves `a` to the top.
      await inbox.message(ws.id, { phone: a.chatPhone, content: 'bump', timestamp: new Date(now) });

      const res = await call(t, keyCaller, 'get', '/api/conversations');
      expect(res.status).toBe(200);
      expect(res.body.map((x: { id: string }) => x.id)).toEqual([a.id, c.id, b.id]);
      expect(Object.keys(res.body[0]).sort()).toEqual(CONVERSATION_KEYS);
      expect(res.body[0]).toEqual({
        id: a.id,
        channel: 'scan',
        chat_jid: `${a.chatPhone}@s.whatsapp.net`,
        chat_name: 'A',
        chat_phone: a.chatPhone,
        is_group: false,
        contact_id: a.contactId,
        assignee_id: null,
        status: 'open',
        unread_count: 2,
        last_message_at: new Date(now).toISOString(),
        last_message_preview: 'bump',
      });
    });

    it('caps the list at the 30 most recent', async () => {
      const { ws, keyCaller } = await setup();
      const base = Date.now() - 100_000;
      const batch = Array.from({ length: 32 }, (_, i) => inbox.inbound({ timestamp: new Date(base + i * 1000), content: `c${i}` }));
      await inbox.ingest.ingestBatch(ws.id, batch);
      const res = await call(t, keyCaller, 'get', '/api/conversations');
      expect(res.body).toHaveLength(30);
      expect(res.body[0].last_message_preview).toBe('c31');
      expect(res.body[29].last_message_preview).toBe('c2');
    });

    it('filters by status and assignee', async () => {
      const { ws, owner, ownerCaller } = await setup();
      const agent = await t.factories.signedInMember(ws.id, 'agent');
      const open = await inbox.conversation(ws.id);
      const closed = await inbox.conversation(ws.id);
      const mine = await inbox.conversation(ws.id);
      const agents = await inbox.conversation(ws.id);
      await call(t, ownerCaller, 'patch', `/api/conversations/${closed.id}`, { status: 'closed' }).expect(200);
      await call(t, ownerCaller, 'post', `/api/conversations/${mine.id}/assign`, { user_id: owner.id }).expect(200);
      await call(t, ownerCaller, 'post', `/api/conversations/${agents.id}/assign`, { user_id: agent.id }).expect(200);

      const ids = async (query: string) =>
        (await call(t, ownerCaller, 'get', `/api/conversations${query}`).expect(200)).body.map((x: { id: string }) => x.id).sort();
      expect(await ids('?status=closed')).toEqual([closed.id]);
      expect(await ids('?status=open')).toEqual([open.id, mine.id, agents.id].sort());
      expect(await ids('?assignee=me')).toEqual([mine.id]);
      expect(await ids(`?assignee=${agent.id}`)).toEqual([agents.id]);
      expect(await ids('?assignee=none')).toEqual([open.id, closed.id].sort());
      expect(await ids('?assignee=none&status=open')).toEqual([open.id]);
    });

    it('rejects unknown filter values with 400', async () => {
      const { keyCaller, ownerCaller } = await setup();
      const bad = async (query: string, caller: Caller = ownerCaller) => {
        const res = await call(t, caller, 'get', `/api/conversations${query}`);
        expect(res.status).toBe(400);
        return res.body.error as string;
      };
      expect(await bad('?status=archived')).toBe('status must be open or closed');
      expect(await bad('?status=open&status=closed')).toBe('status must be open or closed');
      expect(await bad('?assignee=someone')).toBe('assignee must be me, none or a user id');
      expect(await bad('?assignee=me', keyCaller)).toMatch(/assignee=me needs a signed-in user/);
    });
  });

  describe('one conversation', () => {
    it('reads one; malformed and unknown ids get the contract texts', async () => {
      const { ws, keyCaller, ownerCaller } = await setup();
      const conversation = await inbox.conversation(ws.id);
      const res = await call(t, keyCaller, 'get', `/api/conversations/${conversation.id}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(conversation.id);
      expect(Object.keys(res.body).sort()).toEqual(CONVERSATION_KEYS);

      for (const [method, suffix] of [
        ['get', ''],
        ['patch', ''],
        ['post', '/read'],
        ['post', '/assign'],
        ['get', '/messages'],
        ['post', '/messages'],
      ] as const) {
        // The owner passes every guard (assign is admin-only), so the id check is what answers.
        const malformed = await call(t, ownerCaller, method, `/api/conversations/not-a-uuid${suffix}`, { status: 'open', body: 'x', user_id: null });
        expect([method, suffix, malformed.status, malformed.body]).toEqual([method, suffix, 400, { error: 'invalid conversation id' }]);
      }
      for (const [method, suffix] of [
        ['get', ''],
        ['patch', ''],
        ['post', '/read'],
        ['post', '/assign'],
        ['get', '/messages'],
        ['post', '/messages'],
      ] as const) {
        const unknown = await call(t, ownerCaller, method, `/api/conversations/${UNKNOWN}${suffix}`, { status: 'open', body: 'x', user_id: null });
        expect([method, suffix, unknown.status, unknown.body]).toEqual([method, suffix, 404, { error: 'conversation not found' }]);
      }
    });

    it('opens and closes; a bad status is 400', async () => {
      const { ws, keyCaller } = await setup();
      const conversation = await inbox.conversation(ws.id);
      const closed = await call(t, keyCaller, 'patch', `/api/conversations/${conversation.id}`, { status: 'closed' });
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({ id: conversation.id, status: 'closed' });
      const bad = await call(t, keyCaller, 'patch', `/api/conversations/${conversation.id}`, { status: 'snoozed' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('status must be open or closed');
      const reopened = await call(t, keyCaller, 'patch', `/api/conversations/${conversation.id}`, { status: 'open' });
      expect(reopened.body.status).toBe('open');
    });
  });

  describe('mark read', () => {
    it('sets unread to 0 and sends read receipts for the unread messages when connected', async () => {
      const { ws, keyCaller } = await setup();
      gateway.connect(ws.id);
      const phone = randomPhone();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await inbox.message(ws.id, { phone, timestamp: new Date(Date.now() + i) })).message.externalId!);
      const conversation = (await inbox.ingest.ingest(ws.id, inbox.inbound({ phone, direction: 'outbound', timestamp: new Date(Date.now() + 10) }))).conversation;
      expect(conversation.unreadCount).toBe(3);

      const res = await call(t, keyCaller, 'post', `/api/conversations/${conversation.id}/read`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      const after = await call(t, keyCaller, 'get', `/api/conversations/${conversation.id}`);
      expect(after.body.unread_count).toBe(0);
      expect(gateway.reads).toEqual([
        { workspaceId: ws.id, conversation: expect.objectContaining({ id: conversation.id, chatJid: `${phone}@s.whatsapp.net` }), messageIds: ids.reverse() },
      ]);
      // Nothing unread: no receipts.
      await call(t, keyCaller, 'post', `/api/conversations/${conversation.id}/read`).expect(200);
      expect(gateway.reads).toHaveLength(1);
    });

    it('works without a connected channel, and a failing channel does not fail it', async () => {
      const { ws, keyCaller } = await setup();
      const conversation = await inbox.conversation(ws.id);
      await call(t, keyCaller, 'post', `/api/conversations/${conversation.id}/read`).expect(200);
      expect(gateway.reads).toHaveLength(0);
      expect((await call(t, keyCaller, 'get', `/api/conversations/${conversation.id}`)).body.unread_count).toBe(0);

      gateway.connect(ws.id);
      gateway.markRead = async () => {
        throw new Error('socket closed');
      };
      try {
        await inbox.message(ws.id, { phone: conversation.chatPhone });
        await call(t, keyCaller, 'post', `/api/conversations/${conversation.id}/read`).expect(200);
      } finally {
        gateway.markRead = FakeChannelGateway.prototype.markRead;
      }
    });

    it('refuses read keys', async () => {
      const { ws } = await setup();
      const conversation = await inbox.conversation(ws.id);
      const { key } = await t.factories.apiKey(ws.id, 'read');
      const res = await call(t, { key }, 'post', `/api/conversations/${conversation.id}/read`);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('API key is read-only');
    });
  });

  describe('assign', () => {
    it('lets owners and admins assign to a member or unassign', async () => {
      const { ws, ownerCaller } = await setup();
      const admin = await t.factories.signedInMember(ws.id, 'admin');
      const agent = await t.factories.signedInMember(ws.id, 'agent');
      const conversation = await inbox.conversation(ws.id);
      const assigned = await call(t, ownerCaller, 'post', `/api/conversations/${conversation.id}/assign`, { user_id: agent.id });
      expect(assigned.status).toBe(200);
      expect(assigned.body).toMatchObject({ id: conversation.id, assignee_id: agent.id });
      const byAdmin = await call(t, { cookie: admin.cookie, workspaceId: ws.id }, 'post', `/api/conversations/${conversation.id}/assign`, { user_id: null });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.assignee_id).toBeNull();
    });

    it('refuses keys and agents with the contract text', async () => {
      const { ws, keyCaller } = await setup();
      const agent = await t.factories.signedInMember(ws.id, 'agent');
      const conversation = await inbox.conversation(ws.id);
      for (const caller of [keyCaller, { cookie: agent.cookie, workspaceId: ws.id }]) {
        const res = await call(t, caller, 'post', `/api/conversations/${conversation.id}/assign`, { user_id: agent.id });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: 'only admins can assign conversations' });
      }
    });

    it('requires the assignee to be a member (400) and the conversation to exist (404)', async () => {
      const { ws, ownerCaller } = await setup();
      const outsider = await t.factories.user();
      const conversation = await inbox.conversation(ws.id);
      const path = `/api/conversations/${conversation.id}/assign`;
      const notMember = await call(t, ownerCaller, 'post', path, { user_id: outsider.id });
      expect([notMember.status, notMember.body.error]).toEqual([400, 'assignee must be a member of this workspace']);
      const malformed = await call(t, ownerCaller, 'post', path, { user_id: 'bob' });
      expect([malformed.status, malformed.body.error]).toEqual([400, 'invalid user id']);
      const missing = await call(t, ownerCaller, 'post', path, {});
      expect(missing.status).toBe(400);
      const unknown = await call(t, ownerCaller, 'post', `/api/conversations/${UNKNOWN}/assign`, { user_id: null });
      expect([unknown.status, unknown.body.error]).toEqual([404, 'conversation not found']);
      const [row] = await t.dataSource.query('SELECT assignee_id FROM conversations WHERE id = $1', [conversation.id]);
      expect(row.assignee_id).toBeNull();
    });
  });

  describe('agent visibility', () => {
    it('shows agents unassigned conversations and their own; others are 404 everywhere', async () => {
      const { ws, ownerCaller, keyCaller } = await setup();
      gateway.connect(ws.id);
      const agent = await t.factories.signedInMember(ws.id, 'agent');
      const colleague = await t.factories.signedInMember(ws.id, 'agent');
      const agentCaller: Caller = { cookie: agent.cookie, workspaceId: ws.id };
      const unassigned = await inbox.conversation(ws.id);
      const own = await inbox.conversation(ws.id);
      const hidden = await inbox.conversation(ws.id);
      await call(t, ownerCaller, 'post', `/api/conversations/${own.id}/assign`, { user_id: agent.id }).expect(200);
      await call(t, ownerCaller, 'post', `/api/conversations/${hidden.id}/assign`, { user_id: colleague.id }).expect(200);

      const list = await call(t, agentCaller, 'get', '/api/conversations').expect(200);
      expect(list.body.map((c: { id: string }) => c.id).sort()).toEqual([unassigned.id, own.id].sort());
      const theirs = await call(t, agentCaller, 'get', `/api/conversations?assignee=${colleague.id}`).expect(200);
      expect(theirs.body).toEqual([]);
      // Keys see everything.
      expect((await call(t, keyCaller, 'get', '/api/conversations').expect(200)).body).toHaveLength(3);

      for (const [method, suffix, body] of [
        ['get', '', undefined],
        ['patch', '', { status: 'closed' }],
        ['post', '/read', undefined],
        ['get', '/messages', undefined],
        ['post', '/messages', { body: 'sneaky' }],
      ] as const) {
        const res = await call(t, agentCaller, method, `/api/conversations/${hidden.id}${suffix}`, body);
        expect([method, suffix, res.status, res.body]).toEqual([method, suffix, 404, { error: 'conversation not found' }]);
      }
      // Starting a conversation with that number does not reach it either.
      const start = await call(t, agentCaller, 'post', '/api/conversations', { phone: hidden.chatPhone, body: 'hi' });
      expect([start.status, start.body]).toEqual([404, { error: 'conversation not found' }]);
      const [row] = await t.dataSource.query('SELECT status, unread_count FROM conversations WHERE id = $1', [hidden.id]);
      expect(row).toEqual({ status: 'open', unread_count: 1 });
      expect(gateway.sent).toHaveLength(0);

      await call(t, agentCaller, 'get', `/api/conversations/${own.id}`).expect(200);
      await call(t, agentCaller, 'post', `/api/conversations/${unassigned.id}/read`).expect(200);
    });
  });
});
