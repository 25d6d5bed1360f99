import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UNKNOWN_ID, workspaceCallers } from '../inbox/conversation-fixtures.js';
import { type Caller, call } from '../inbox/inbox-http.js';
import type { InboxFactories } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import type { TestApp } from '../support/test-app.js';

describe('quick replies', () => {
  let t: TestApp;
  let inbox: InboxFactories;

  beforeAll(async () => {
    ({ t, inbox } = await createInboxTestApp());
  });
  afterAll(async () => {
    await t?.close();
  });

  async function team() {
    const callers = await workspaceCallers(t);
    const agent = await t.factories.signedInMember(callers.ws.id, 'agent');
    return { ...callers, agent, asAgent: { cookie: agent.cookie, workspaceId: callers.ws.id } as Caller };
  }

  it('owners and admins manage them; members and keys list them by shortcut', async () => {
    const { ownerCaller, asAgent, keyCaller } = await team();
    const created = await call(t, ownerCaller, 'post', '/api/quick-replies', { shortcut: '/thanks', body: ' Thank you! ' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      shortcut: 'thanks',
      body: 'Thank you!',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    await call(t, ownerCaller, 'post', '/api/quick-replies', { shortcut: 'address', body: 'Rua Augusta 1' }).expect(201);
    for (const caller of [ownerCaller, asAgent, keyCaller]) {
      expect((await call(t, caller, 'get', '/api/quick-replies')).body.map((q: { shortcut: string }) => q.shortcut)).toEqual(['address', 'thanks']);
    }
    const changed = await call(t, ownerCaller, 'patch', `/api/quick-replies/${created.body.id}`, { shortcut: 'ty' });
    expect(changed.body).toMatchObject({ shortcut: 'ty', body: 'Thank you!' });
    expect((await call(t, ownerCaller, 'delete', `/api/quick-replies/${created.body.id}`)).body).toEqual({ ok: true });
    const gone = await call(t, ownerCaller, 'delete', `/api/quick-replies/${created.body.id}`);
    expect([gone.status, gone.body]).toEqual([404, { error: 'quick reply not found' }]);

    const byAgent = await call(t, asAgent, 'post', '/api/quick-replies', { shortcut: 'x', body: 'x' });
    expect([byAgent.status, byAgent.body]).toEqual([403, { error: 'admin required' }]);
    const byKey = await call(t, keyCaller, 'post', '/api/quick-replies', { shortcut: 'x', body: 'x' });
    expect([byKey.status, byKey.body]).toEqual([403, { error: 'API keys cannot administer workspaces' }]);
  });

  it('refuses bad shortcuts and bodies, and a shortcut taken', async () => {
    const { ownerCaller } = await team();
    await call(t, ownerCaller, 'post', '/api/quick-replies', { shortcut: 'hello', body: 'Hi' }).expect(201);
    const SHORTCUT = 'shortcut must be 1-32 lowercase letters, digits, - or _';
    for (const [body, status, error] of [
      [{ body: 'x' }, 400, SHORTCUT],
      [{ shortcut: '/', body: 'x' }, 400, SHORTCUT],
      [{ shortcut: 'Hello', body: 'x' }, 400, SHORTCUT],
      [{ shortcut: 'two words', body: 'x' }, 400, SHORTCUT],
      [{ shortcut: '-dash', body: 'x' }, 400, SHORTCUT],
      [{ shortcut: 'a'.repeat(33), body: 'x' }, 400, SHORTCUT],
      [{ shortcut: 'ok' }, 400, 'body is required (1 to 4096 characters)'],
      [{ shortcut: 'ok', body: '  ' }, 400, 'body is required (1 to 4096 characters)'],
      [{ shortcut: 'ok', body: 'x'.repeat(4097) }, 400, 'body is required (1 to 4096 characters)'],
      [{ shortcut: '/hello', body: 'again' }, 409, 'a quick reply with this shortcut already exists'],
    ] as const) {
      const res = await call(t, ownerCaller, 'post', '/api/quick-replies', body);
      expect([JSON.stringify(body).slice(0, 60), res.status, res.body]).toEqual([JSON.stringify(body).slice(0, 60), status, { error }]);
    }
    expect((await call(t, ownerCaller, 'post', '/api/quick-replies', { shortcut: 'a'.repeat(32), body: 'x'.repeat(4096) })).status).toBe(201);
    const malformed = await call(t, ownerCaller, 'patch', '/api/quick-replies/nope', { body: 'x' });
    expect([malformed.status, malformed.body]).toEqual([400, { error: 'invalid quick reply id' }]);
  });

  it('renders the placeholders for a conversation as the caller; unknown ones stay, missing values are empty', async () => {
    const { ws, ownerCaller, owner, asAgent, agent, keyCaller } = await team();
    const body = 'Hi {{contact.name}} ({{ contact.phone }}), {{agent.name}} here about {{conversation.name}}. {{order.id}} {{contact.email}}';
    const reply = (await call(t, ownerCaller, 'post', '/api/quick-replies', { shortcut: 'hi', body }).expect(201)).body;
    const phone = '99912345678';
    const conversation = await inbox.conversation(ws.id, { phone, chatName: 'Maria S.', contact: { phone, name: 'Maria Souza' } });

    const render = (caller: Caller) => call(t, caller, 'post', `/api/quick-replies/${reply.id}/render`, { conversation_id: conversation.id });
    const asOwner = await render(ownerCaller);
    expect([asOwner.status, asOwner.body]).toEqual([
      200,
      { text: `Hi Maria Souza (+${phone}), ${owner.name} here about Maria S.. {{order.id}} {{contact.email}}` },
    ]);
    expect((await render(asAgent)).body.text).toContain(`${agent.name} here`);
    expect((await render(keyCaller)).body.text).toBe(`Hi Maria Souza (+${phone}),  here about Maria S.. {{order.id}} {{contact.email}}`);

    // A group has no contact: its name and phone are empty.
    const group = await inbox.ingest.ingest(ws.id, inbox.inbound({ chatJid: '120363000000000001@g.us', isGroup: true, chatName: 'Team', contact: null }));
    const inGroup = await call(t, keyCaller, 'post', `/api/quick-replies/${reply.id}/render`, { conversation_id: group.conversation.id });
    expect(inGroup.body.text).toBe('Hi  (),  here about Team. {{order.id}} {{contact.email}}');
  });

  it('render answers 400 and 404 with their texts, and hides what an agent may not see', async () => {
    const { ws, ownerCaller, asAgent, keyCaller } = await team();
    const reply = (await call(t, ownerCaller, 'post', '/api/quick-replies', { shortcut: 'x', body: 'x' }).expect(201)).body;
    const conversation = await inbox.conversation(ws.id);
    for (const [path, payload, status, error] of [
      [`/api/quick-replies/${reply.id}/render`, {}, 400, 'conversation_id must be a conversation id'],
      [`/api/quick-replies/${reply.id}/render`, { conversation_id: 'abc' }, 400, 'conversation_id must be a conversation id'],
      [`/api/quick-replies/${reply.id}/render`, { conversation_id: UNKNOWN_ID }, 404, 'conversation not found'],
      [`/api/quick-replies/${UNKNOWN_ID}/render`, { conversation_id: conversation.id }, 404, 'quick reply not found'],
      ['/api/quick-replies/nope/render', { conversation_id: conversation.id }, 400, 'invalid quick reply id'],
    ] as const) {
      const res = await call(t, keyCaller, 'post', path, payload);
      expect([path, res.status, res.body]).toEqual([path, status, { error }]);
    }
    const colleague = await t.factories.signedInMember(ws.id, 'agent');
    await call(t, ownerCaller, 'post', `/api/conversations/${conversation.id}/assign`, { user_id: colleague.id }).expect(200);
    const hidden = await call(t, asAgent, 'post', `/api/quick-replies/${reply.id}/render`, { conversation_id: conversation.id });
    expect([hidden.status, hidden.body]).toEqual([404, { error: 'conversation not found' }]);
  });
});
