import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { InboxFactories } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import { dataOf, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import type { TestApp } from '../support/test-app.js';
import { UNKNOWN_ID, workspaceCallers } from './conversation-fixtures.js';
import { type Caller, call } from './inbox-http.js';

describe('labels', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  const open: SseClient[] = [];

  beforeAll(async () => {
    ({ t, inbox } = await createInboxTestApp());
  });
  afterEach(() => {
    for (const stream of open.splice(0)) stream.close();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function team() {
    const callers = await workspaceCallers(t);
    const agent = await t.factories.signedInMember(callers.ws.id, 'agent');
    const admin = await t.factories.signedInMember(callers.ws.id, 'admin');
    const { key: readKey } = await t.factories.apiKey(callers.ws.id, 'read');
    return {
      ...callers,
      agent,
      asAgent: { cookie: agent.cookie, workspaceId: callers.ws.id } as Caller,
      asAdmin: { cookie: admin.cookie, workspaceId: callers.ws.id } as Caller,
      readCaller: { key: readKey } as Caller,
    };
  }

  const create = async (caller: Caller, body: object) => {
    const res = await call(t, caller, 'post', '/api/labels', body);
    expect(res.status).toBe(201);
    return res.body as { id: string; name: string; color: string; created_at: string };
  };

  it('owners and admins create, rename, recolour and delete; everyone lists them by name', async () => {
    const { ownerCaller, asAdmin, asAgent, keyCaller, readCaller } = await team();
    const vip = await create(ownerCaller, { name: '  VIP  ', color: '#D1242F' });
    expect(vip).toEqual({ id: expect.any(String), name: 'VIP', color: '#d1242f', created_at: expect.any(String) });
    const billing = await create(asAdmin, { name: 'billing' });
    expect(billing.color).toBe('#1f6feb');

    for (const caller of [ownerCaller, asAgent, keyCaller, readCaller]) {
      const listed = await call(t, caller, 'get', '/api/labels');
      expect(listed.status).toBe(200);
      expect(listed.body.map((l: { name: string }) => l.name)).toEqual(['billing', 'VIP']);
    }
    const renamed = await call(t, asAdmin, 'patch', `/api/labels/${billing.id}`, { name: 'Billing', color: '#00aa00' });
    expect(renamed.body).toMatchObject({ id: billing.id, name: 'Billing', color: '#00aa00' });
    expect((await call(t, ownerCaller, 'delete', `/api/labels/${vip.id}`)).body).toEqual({ ok: true });
    expect((await call(t, ownerCaller, 'get', '/api/labels')).body.map((l: { id: string }) => l.id)).toEqual([billing.id]);
  });

  it('refuses bad names and colours, duplicates (any case), and callers who may not administer', async () => {
    const { ownerCaller, asAgent, keyCaller } = await team();
    const vip = await create(ownerCaller, { name: 'VIP' });
    for (const [body, status, error] of [
      [{}, 400, 'name is required (1 to 50 characters)'],
      [{ name: '   ' }, 400, 'name is required (1 to 50 characters)'],
      [{ name: 'x'.repeat(51) }, 400, 'name is required (1 to 50 characters)'],
      [{ name: 'ok', color: 'red' }, 400, 'color must be a hex color like #1f6feb'],
      [{ name: 'ok', color: '#12345' }, 400, 'color must be a hex color like #1f6feb'],
      [{ name: 'ok', color: null }, 400, 'color must be a hex color like #1f6feb'],
      [{ name: 'vip' }, 409, 'a label with this name already exists'],
    ] as const) {
      const res = await call(t, ownerCaller, 'post', '/api/labels', body);
      expect([JSON.stringify(body), res.status, res.body]).toEqual([JSON.stringify(body), status, { error }]);
    }
    const other = await create(ownerCaller, { name: 'Other' });
    const clash = await call(t, ownerCaller, 'patch', `/api/labels/${other.id}`, { name: 'vIp' });
    expect([clash.status, clash.body]).toEqual([409, { error: 'a label with this name already exists' }]);

    const byAgent = await call(t, asAgent, 'post', '/api/labels', { name: 'mine' });
    expect([byAgent.status, byAgent.body]).toEqual([403, { error: 'admin required' }]);
    for (const [method, path] of [
      ['post', '/api/labels'],
      ['patch', `/api/labels/${vip.id}`],
      ['delete', `/api/labels/${vip.id}`],
    ] as const) {
      const byKey = await call(t, keyCaller, method, path, { name: 'keyed' });
      expect([method, byKey.status, byKey.body]).toEqual([method, 403, { error: 'API keys cannot administer workspaces' }]);
    }
    const unknown = await call(t, ownerCaller, 'patch', `/api/labels/${UNKNOWN_ID}`, { name: 'x' });
    expect([unknown.status, unknown.body]).toEqual([404, { error: 'label not found' }]);
    const malformed = await call(t, ownerCaller, 'delete', '/api/labels/nope');
    expect([malformed.status, malformed.body]).toEqual([400, { error: 'invalid label id' }]);
  });

  it('members and write keys label conversations and contacts; a delete takes the label off everything', async () => {
    const { ws, ownerCaller, asAgent, keyCaller, readCaller } = await team();
    const vip = await create(ownerCaller, { name: 'VIP' });
    const urgent = await create(ownerCaller, { name: 'Urgent' });
    const conversation = await inbox.conversation(ws.id);
    const path = `/api/conversations/${conversation.id}/labels`;

    const labelled = await call(t, asAgent, 'post', path, { label_id: vip.id });
    expect(labelled.status).toBe(200);
    expect(labelled.body).toMatchObject({ id: conversation.id, label_ids: [vip.id] });
    // Twice is once.
    expect((await call(t, keyCaller, 'post', path, { label_id: vip.id })).body.label_ids).toEqual([vip.id]);
    expect((await call(t, keyCaller, 'post', path, { label_id: urgent.id.toUpperCase() })).body.label_ids).toEqual([vip.id, urgent.id]);
    expect((await call(t, readCaller, 'post', path, { label_id: vip.id })).status).toBe(403);
    expect((await call(t, readCaller, 'get', `/api/conversations/${conversation.id}`)).body.label_ids).toEqual([vip.id, urgent.id]);

    const contactId = conversation.contactId!;
    const contact = await call(t, asAgent, 'post', `/api/contacts/${contactId}/labels`, { label_id: vip.id });
    expect([contact.status, contact.body.id, contact.body.label_ids]).toEqual([200, contactId, [vip.id]]);

    const removed = await call(t, asAgent, 'delete', `${path}/${urgent.id}`);
    expect([removed.status, removed.body.label_ids]).toEqual([200, [vip.id]]);
    // Taking off a label it does not have changes nothing.
    expect((await call(t, asAgent, 'delete', `${path}/${urgent.id}`)).body.label_ids).toEqual([vip.id]);

    await call(t, ownerCaller, 'delete', `/api/labels/${vip.id}`).expect(200);
    expect((await call(t, ownerCaller, 'get', `/api/conversations/${conversation.id}`)).body.label_ids).toEqual([]);
    const contactAfter = (await call(t, ownerCaller, 'get', `/api/contacts/${contactId}`)).body;
    expect(contactAfter.label_ids).toEqual([]);
    expect((await call(t, ownerCaller, 'delete', `/api/contacts/${contactId}/labels/${urgent.id}`)).body.label_ids).toEqual([]);
  });

  it('answers the label and visibility errors with their texts', async () => {
    const { ws, ownerCaller, asAgent, keyCaller } = await team();
    const vip = await create(ownerCaller, { name: 'VIP' });
    const conversation = await inbox.conversation(ws.id);
    const elsewhere = await t.factories.workspaceWithOwner();
    const foreign = await call(t, { cookie: elsewhere.owner.cookie, workspaceId: elsewhere.workspace.id }, 'post', '/api/labels', { name: 'VIP' });

    for (const [body, error] of [
      [{}, 'label_id must be a label id'],
      [{ label_id: 'vip' }, 'label_id must be a label id'],
      [{ label_id: UNKNOWN_ID }, 'label not found'],
      [{ label_id: foreign.body.id }, 'label not found'],
    ] as const) {
      for (const target of [`/api/conversations/${conversation.id}/labels`, `/api/contacts/${conversation.contactId}/labels`]) {
        const res = await call(t, keyCaller, 'post', target, body);
        expect([target, res.status, res.body]).toEqual([target, 400, { error }]);
      }
    }
    const unknownConversation = await call(t, keyCaller, 'post', `/api/conversations/${UNKNOWN_ID}/labels`, { label_id: vip.id });
    expect([unknownConversation.status, unknownConversation.body]).toEqual([404, { error: 'conversation not found' }]);
    const unknownContact = await call(t, keyCaller, 'delete', `/api/contacts/${UNKNOWN_ID}/labels/${vip.id}`);
    expect([unknownContact.status, unknownContact.body]).toEqual([404, { error: 'contact not found' }]);
    const badLabel = await call(t, keyCaller, 'delete', `/api/conversations/${conversation.id}/labels/nope`);
    expect([badLabel.status, badLabel.body]).toEqual([400, { error: 'invalid label id' }]);

    // Assigned to a colleague: hidden from the agent, whatever the label.
    const colleague = await t.factories.signedInMember(ws.id, 'agent');
    await call(t, ownerCaller, 'post', `/api/conversations/${conversation.id}/assign`, { user_id: colleague.id }).expect(200);
    for (const labelId of [vip.id, UNKNOWN_ID]) {
      const hidden = await call(t, asAgent, 'post', `/api/conversations/${conversation.id}/labels`, { label_id: labelId });
      expect([hidden.status, hidden.body]).toEqual([404, { error: 'conversation not found' }]);
    }
    const hiddenRemove = await call(t, asAgent, 'delete', `/api/conversations/${conversation.id}/labels/${vip.id}`);
    expect(hiddenRemove.status).toBe(404);
  });

  it('a label change of a conversation is a conversation.updated live event', async () => {
    const { ws, owner, ownerCaller, keyCaller } = await team();
    const vip = await create(ownerCaller, { name: 'VIP' });
    const conversation = await inbox.conversation(ws.id);
    const stream = await openSse(`${await listenUrl(t.app)}/api/events`, { Cookie: owner.cookie, 'X-Tenant-ID': ws.id });
    open.push(stream);
    await stream.waitFor('the stream to open', (c) => c.comments.includes(' connected'));

    await call(t, keyCaller, 'post', `/api/conversations/${conversation.id}/labels`, { label_id: vip.id }).expect(200);
    await call(t, keyCaller, 'delete', `/api/conversations/${conversation.id}/labels/${vip.id}`).expect(200);
    await stream.waitFor('two updates', (c) => c.events.filter((e) => e.event === 'conversation.updated').length >= 2);
    const updates = stream.events.filter((e) => e.event === 'conversation.updated').map((e) => dataOf<{ id: string; label_ids: string[] }>(e));
    expect(updates.map((u) => [u.id, u.label_ids])).toEqual([
      [conversation.id, [vip.id]],
      [conversation.id, []],
    ]);
  });
  it('the automation action add_label puts the label on the conversation of a matching message', async () => {
    const { ws, ownerCaller } = await team();
    const vip = await create(ownerCaller, { name: 'VIP' });
    const rule = { name: 'vip customers', trigger: 'message.inbound', conditions: [{ field: 'content', op: 'contains', value: 'premium' }] };
    for (const [action, error] of [
      [{ type: 'add_label' }, 'actions[0].label_id must be a label id'],
      [{ type: 'add_label', label_id: UNKNOWN_ID }, 'actions[0].label_id: label not found'],
    ] as const) {
      const refused = await call(t, ownerCaller, 'post', '/api/automations', { ...rule, actions: [action] });
      expect([refused.status, refused.body]).toEqual([400, { error }]);
    }
    const automation = await call(t, ownerCaller, 'post', '/api/automations', { ...rule, actions: [{ type: 'add_label', label_id: vip.id }] });
    expect([automation.status, automation.body.actions]).toEqual([201, [{ type: 'add_label', label_id: vip.id }]]);

    const { message, conversation } = await inbox.message(ws.id, { content: 'I am a premium customer' });
    const other = await inbox.message(ws.id, { content: 'just asking' });
    for (const id of [message.id, other.message.id]) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const rows: { done: boolean }[] = await t.dataSource.query('SELECT done_at IS NOT NULL AS done FROM automation_triggers WHERE message_id = $1', [id]);
        if (rows[0]?.done) break;
        if (Date.now() > deadline) throw new Error('the automations did not run');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    expect((await call(t, ownerCaller, 'get', `/api/conversations/${conversation.id}`)).body.label_ids).toEqual([vip.id]);
    expect((await call(t, ownerCaller, 'get', `/api/conversations/${other.conversation.id}`)).body.label_ids).toEqual([]);
  });
  it('a label deleted while it is being put on conversations is left on none of them', async () => {
    const { ws, ownerCaller, keyCaller } = await team();
    const conversations = await Promise.all(Array.from({ length: 12 }, () => inbox.conversation(ws.id)));
    for (let round = 0; round < 3; round++) {
      const label = await create(ownerCaller, { name: `Racing ${round}` });
      const [removed, ...applied] = await Promise.all([
        call(t, ownerCaller, 'delete', `/api/labels/${label.id}`),
        ...conversations.map((c) => call(t, keyCaller, 'post', `/api/conversations/${c.id}/labels`, { label_id: label.id })),
      ]);
      expect(removed.status).toBe(200);
      // Each addition either went first (and the delete took it off again) or found no label.
      for (const res of applied) expect([200, 400]).toContain(res.status);
      const left: { n: number }[] = await t.dataSource.query('SELECT count(*)::int AS n FROM conversations WHERE workspace_id = $1 AND $2 = ANY (label_ids)', [
        ws.id,
        label.id,
      ]);
      expect(left[0]!.n).toBe(0);
    }
  });
});
