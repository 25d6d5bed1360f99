import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import type { InboxFactories } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import type { TestApp } from '../support/test-app.js';
import { call, type Caller, type Method } from './inbox-http.js';

describe('inbox tenant isolation', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;

  beforeAll(async () => {
    ({ t, inbox, gateway } = await createInboxTestApp());
  });
  afterAll(async () => {
    await t?.close();
  });

  const snapshot = async (workspaceId: string) => ({
    conversations: await t.dataSource.query('SELECT * FROM conversations WHERE workspace_id = $1 ORDER BY id', [workspaceId]),
    messages: await t.dataSource.query('SELECT * FROM messages WHERE workspace_id = $1 ORDER BY id', [workspaceId]),
    contacts: await t.dataSource.query('SELECT * FROM contacts WHERE workspace_id = $1 ORDER BY id', [workspaceId]),
  });

  it("answers 404 for every inbox route called with another workspace's ids, and changes nothing", async () => {
    const a = await t.factories.workspaceWithOwner();
    const b = await t.factories.workspaceWithOwner();
    gateway.connect(a.workspace.id);
    gateway.connect(b.workspace.id);
    const theirs = await inbox.message(b.workspace.id, { content: 'private to B' });
    const conversationId = theirs.conversation.id;
    const contactId = theirs.conversation.contactId!;
    const before = await snapshot(b.workspace.id);

    const callers: Caller[] = [{ key: a.key }, { cookie: a.owner.cookie, workspaceId: a.workspace.id }];
    const routes: [Method, string, object | undefined, string][] = [
      ['get', `/api/conversations/${conversationId}`, undefined, 'conversation not found'],
      ['patch', `/api/conversations/${conversationId}`, { status: 'closed' }, 'conversation not found'],
      ['post', `/api/conversations/${conversationId}/read`, undefined, 'conversation not found'],
      ['get', `/api/conversations/${conversationId}/messages`, undefined, 'conversation not found'],
      ['post', `/api/conversations/${conversationId}/messages`, { body: 'hijack' }, 'conversation not found'],
      ['get', `/api/contacts/${contactId}`, undefined, 'contact not found'],
      ['patch', `/api/contacts/${contactId}`, { name: 'renamed' }, 'contact not found'],
      ['delete', `/api/contacts/${contactId}`, undefined, 'contact not found'],
    ];
    for (const caller of callers) {
      for (const [method, path, body, error] of routes) {
        const res = await call(t, caller, method, path, body);
        expect([method, path, res.status, res.body]).toEqual([method, path, 404, { error }]);
      }
    }
    // Assign is for session admins only; A's owner gets the same 404.
    const assign = await call(t, callers[1]!, 'post', `/api/conversations/${conversationId}/assign`, { user_id: null });
    expect([assign.status, assign.body]).toEqual([404, { error: 'conversation not found' }]);

    // Lists never show B's rows, and starting a chat with B's contact's number stays inside A.
    for (const caller of callers) {
      expect((await call(t, caller, 'get', '/api/conversations')).body).toEqual([]);
      expect((await call(t, caller, 'get', '/api/contacts')).body).toEqual([]);
    }
    const started = await call(t, callers[0]!, 'post', '/api/conversations', { phone: theirs.conversation.chatPhone, body: 'hello' });
    expect(started.status).toBe(201);
    expect(started.body.conversation.id).not.toBe(conversationId);
    expect(gateway.sent.map((s) => s.workspaceId)).toEqual([a.workspace.id]);

    expect(await snapshot(b.workspace.id)).toEqual(before);
  });
});
