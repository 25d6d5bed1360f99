import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { type InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import { dataOf, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import type { TestApp } from '../support/test-app.js';
import { call, type Caller } from '../inbox/inbox-http.js';

/**
 * Issue 34, item 4: "every change a Console would show goes out on the stream" (docs/events.md)
 * holds for contacts too: created, changed and deleted contacts are published.
 */
describe('live events of contacts', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;
  let base: string;
  const open: SseClient[] = [];

  beforeAll(async () => {
    ({ t, inbox, gateway } = await createInboxTestApp());
    base = await listenUrl(t.app);
  });
  afterEach(() => {
    open.splice(0).forEach((client) => client.close());
  });
  afterAll(async () => {
    await t?.close();
  });

  const stream = async (headers: Record<string, string>): Promise<SseClient> => {
    const client = await openSse(`${base}/api/events`, headers);
    expect(client.status).toBe(200);
    open.push(client);
    return client;
  };
  const named = (client: SseClient, name: string): Record<string, unknown>[] => client.events.filter((e) => e.event === name).map((e) => dataOf(e));
  const waitForEvent = (client: SseClient, name: string, count = 1): Promise<void> => client.waitFor(`${count} ${name}`, (c) => named(c, name).length >= count);

  it('publishes contact.created, contact.updated and contact.deleted with the contact as the API answers it, to every member', async () => {
    const { workspace, key } = await t.factories.workspaceWithOwner();
    const caller: Caller = { key };
    const agent = await t.factories.signedInMember(workspace.id, 'agent');
    const byKey = await stream({ Authorization: `Bearer ${key}` });
    const byAgent = await stream({ Cookie: agent.cookie, 'X-Tenant-ID': workspace.id });
    const stranger = await t.factories.workspaceWithOwner();
    const elsewhere = await stream({ Authorization: `Bearer ${stranger.key}` });

    const created = await call(t, caller, 'post', '/api/contacts', { phone: randomPhone(), name: 'Ada' });
    expect(created.status).toBe(201);
    await waitForEvent(byKey, 'contact.created');
    expect(named(byKey, 'contact.created')).toEqual([created.body]);

    const changed = await call(t, caller, 'patch', `/api/contacts/${created.body.id}`, { name: 'Ada Lovelace' });
    expect(changed.status).toBe(200);
    await waitForEvent(byKey, 'contact.updated');
    expect(named(byKey, 'contact.updated')).toEqual([changed.body]);

    const deleted = await call(t, caller, 'delete', `/api/contacts/${String(created.body.id).toUpperCase()}`);
    expect(deleted.status).toBe(200);
    await waitForEvent(byKey, 'contact.deleted');
    expect(named(byKey, 'contact.deleted')).toEqual([{ id: created.body.id }]);

    // Agents list every contact, so they receive every contact event; other workspaces none.
    await waitForEvent(byAgent, 'contact.deleted');
    expect(byAgent.events.map((e) => e.event)).toEqual(['contact.created', 'contact.updated', 'contact.deleted']);
    expect(elsewhere.events.filter((e) => e.event.startsWith('contact.'))).toEqual([]);
  });

  it('publishes nothing for a refused change', async () => {
    const { key } = await t.factories.workspaceWithOwner();
    const caller: Caller = { key };
    const client = await stream({ Authorization: `Bearer ${key}` });
    const phone = randomPhone();
    const first = await call(t, caller, 'post', '/api/contacts', { phone, name: 'One' });
    expect((await call(t, caller, 'post', '/api/contacts', { phone, name: 'Two' })).status).toBe(409);
    expect((await call(t, caller, 'patch', `/api/contacts/${first.body.id}`, { phone: 'call me' })).status).toBe(400);
    expect((await call(t, caller, 'patch', '/api/contacts/00000000-0000-4000-8000-000000000000', { name: 'x' })).status).toBe(404);
    // A change after the refused ones: once it is here, anything they published would be too.
    const last = await call(t, caller, 'patch', `/api/contacts/${first.body.id}`, { name: 'Last' });
    await client.waitFor('the last change', (c) => named(c, 'contact.updated').some((e) => e.name === 'Last'));
    expect(client.events.map((e) => [e.event, dataOf(e).name])).toEqual([
      ['contact.created', 'One'],
      ['contact.updated', last.body.name],
    ]);
  });

  it('announces the conversations a deleted contact was linked to before the contact itself', async () => {
    const { workspace, key } = await t.factories.workspaceWithOwner();
    // Before the stream opens, so its own events (published while nobody watched) are not built.
    const conversation = await inbox.conversation(workspace.id);
    const contactId = conversation.contactId!;
    const client = await stream({ Authorization: `Bearer ${key}` });
    expect((await call(t, { key }, 'delete', `/api/contacts/${contactId}`)).status).toBe(200);
    await waitForEvent(client, 'contact.deleted');
    expect(client.events.map((e) => [e.event, dataOf(e).id])).toEqual([
      ['conversation.updated', conversation.id],
      ['contact.deleted', contactId],
    ]);
    expect(dataOf(client.events[0]!).contact_id).toBeNull();
  });

  it('announces a conversation started without a message once, when it is created', async () => {
    const { workspace, key } = await t.factories.workspaceWithOwner();
    gateway.connect(workspace.id);
    const client = await stream({ Authorization: `Bearer ${key}` });
    const phone = randomPhone();
    const started = await call(t, { key }, 'post', '/api/conversations', { phone });
    expect(started.status).toBe(201);
    await waitForEvent(client, 'conversation.updated');
    expect(named(client, 'conversation.updated')).toEqual([started.body.conversation]);

    // Started again: found, not created, so nothing to announce (the contact change after it is the marker).
    expect((await call(t, { key }, 'post', '/api/conversations', { phone })).status).toBe(201);
    await call(t, { key }, 'patch', `/api/contacts/${started.body.conversation.contact_id}`, { name: 'Marker' });
    await waitForEvent(client, 'contact.updated');
    expect(client.events.map((e) => e.event)).toEqual(['conversation.updated', 'contact.updated']);
  });
});
