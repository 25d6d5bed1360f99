import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { type InboxFactories } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import type { TestApp } from '../support/test-app.js';
import { CONVERSATION_KEYS, workspaceCallers } from './conversation-fixtures.js';
import { call, type Caller } from './inbox-http.js';

describe('conversations: list and visibility', () => {
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
        snoozed_until: null,
        label_ids: [],
        unread_count: 2,
        last_message_at: new Date(now).toISOString(),
        last_message_preview: 'bump',
      });
    });

    it('orders across hours as within one: the latest hour first, an older message arriving late moves nothing', async () => {
      const { ws, keyCaller } = await setup();
      // The list's index holds the hour of the last message: conversations on both sides of an hour's boundary.
      const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 3_600_000;
      const a = await inbox.conversation(ws.id, { timestamp: new Date(hour - 1000) }); // 10:59:59
      const b = await inbox.conversation(ws.id, { timestamp: new Date(hour) }); // 11:00:00
      const c = await inbox.conversation(ws.id, { timestamp: new Date(hour - 1_800_000) }); // 10:30
      const ids = async (): Promise<string[]> => (await call(t, keyCaller, 'get', '/api/conversations')).body.map((x: { id: string }) => x.id);
      expect(await ids()).toEqual([b.id, a.id, c.id]);
      // Late messages from an hour before: nothing moves.
      await inbox.message(ws.id, { phone: b.chatPhone, timestamp: new Date(hour - 7_200_000), content: 'late' });
      await inbox.ingest.ingestBatch(ws.id, [inbox.inbound({ phone: a.chatPhone, timestamp: new Date(hour - 7_200_000), content: 'late too' })]);
      expect(await ids()).toEqual([b.id, a.id, c.id]);
      // c moves into the next hour (the live path), then a within b's hour but later (the bulk path).
      await inbox.message(ws.id, { phone: c.chatPhone, timestamp: new Date(hour + 1_800_000) });
      await inbox.ingest.ingestBatch(ws.id, [inbox.inbound({ phone: a.chatPhone, timestamp: new Date(hour + 1000) })]);
      expect(await ids()).toEqual([c.id, a.id, b.id]);
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
      expect(await bad('?status=archived')).toBe('status must be open, pending, snoozed or closed');
      expect(await bad('?status=open&status=closed')).toBe('status must be open, pending, snoozed or closed');
      expect(await bad('?assignee=someone')).toBe('assignee must be me, none or a user id');
      expect(await bad('?assignee=me', keyCaller)).toMatch(/assignee=me needs a signed-in user/);
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
