import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { type InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import type { TestApp } from '../support/test-app.js';
import { CONVERSATION_KEYS, UNKNOWN_ID, workspaceCallers } from './conversation-fixtures.js';
import { call } from './inbox-http.js';

describe('conversations: one conversation, mark read, assign', () => {
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

  const setup = () => workspaceCallers(t);

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
        const unknown = await call(t, ownerCaller, method, `/api/conversations/${UNKNOWN_ID}${suffix}`, { status: 'open', body: 'x', user_id: null });
        expect([method, suffix, unknown.status, unknown.body]).toEqual([method, suffix, 404, { error: 'conversation not found' }]);
      }
    });

    it('opens and closes; a bad status is 400', async () => {
      const { ws, keyCaller } = await setup();
      const conversation = await inbox.conversation(ws.id);
      const closed = await call(t, keyCaller, 'patch', `/api/conversations/${conversation.id}`, { status: 'closed' });
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({ id: conversation.id, status: 'closed' });
      const bad = await call(t, keyCaller, 'patch', `/api/conversations/${conversation.id}`, { status: 'archived' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('status must be open, pending, snoozed or closed');
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
      const conversation = (await inbox.ingest.ingest(ws.id, inbox.inbound({ phone, direction: 'outbound', timestamp: new Date(Date.now() + 10) })))
        .conversation;
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
      const unknown = await call(t, ownerCaller, 'post', `/api/conversations/${UNKNOWN_ID}/assign`, { user_id: null });
      expect([unknown.status, unknown.body.error]).toEqual([404, 'conversation not found']);
      const [row] = await t.dataSource.query('SELECT assignee_id FROM conversations WHERE id = $1', [conversation.id]);
      expect(row.assignee_id).toBeNull();
    });
  });
});
