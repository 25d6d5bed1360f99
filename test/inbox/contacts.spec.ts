import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';

describe('contacts', () => {
  let t: TestApp;
  let inbox: InboxFactories;

  beforeAll(async () => {
    t = await createTestApp();
    inbox = new InboxFactories(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function setup() {
    const { workspace, owner, key } = await t.factories.workspaceWithOwner();
    return { ws: workspace, caller: { key } as Caller, session: { cookie: owner.cookie, workspaceId: workspace.id } as Caller };
  }

  it('creates, reads, updates and deletes a contact', async () => {
    const { caller } = await setup();
    const phone = randomPhone();
    const created = await call(t, caller, 'post', '/api/contacts', { phone: `+${phone.slice(0, 3)} ${phone.slice(3)}`, name: ' Ada ' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      phone,
      lid: null,
      bsuid: null,
      name: 'Ada',
      label_ids: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id as string;

    expect((await call(t, caller, 'get', `/api/contacts/${id}`)).body).toEqual(created.body);
    const renamed = await call(t, caller, 'patch', `/api/contacts/${id}`, { name: 'Ada Lovelace' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, phone, name: 'Ada Lovelace' });
    const newPhone = randomPhone();
    expect((await call(t, caller, 'patch', `/api/contacts/${id}`, { phone: newPhone })).body).toMatchObject({ phone: newPhone, name: 'Ada Lovelace' });

    const deleted = await call(t, caller, 'delete', `/api/contacts/${id}`);
    expect([deleted.status, deleted.body]).toEqual([200, { ok: true }]);
    const gone = await call(t, caller, 'get', `/api/contacts/${id}`);
    expect([gone.status, gone.body]).toEqual([404, { error: 'contact not found' }]);
  });

  it('refuses a second contact with the same phone number (409)', async () => {
    const { caller } = await setup();
    const phone = randomPhone();
    await call(t, caller, 'post', '/api/contacts', { phone, name: 'One' }).expect(201);
    const twice = await call(t, caller, 'post', '/api/contacts', { phone: `+${phone}`, name: 'Two' });
    expect([twice.status, twice.body]).toEqual([409, { error: 'a contact with this phone number already exists' }]);
    // The international call prefix names the same number.
    const prefixed = await call(t, caller, 'post', '/api/contacts', { phone: `00${phone}`, name: 'Two' });
    expect([prefixed.status, prefixed.body]).toEqual([409, { error: 'a contact with this phone number already exists' }]);
    const other = await call(t, caller, 'post', '/api/contacts', { phone: randomPhone(), name: 'Three' });
    const clash = await call(t, caller, 'patch', `/api/contacts/${other.body.id}`, { phone });
    expect([clash.status, clash.body]).toEqual([409, { error: 'a contact with this phone number already exists' }]);
  });

  it('validates phone numbers and ids', async () => {
    const { caller } = await setup();
    // '015553330001': national form, no country code (E.164 never starts with 0).
    for (const phone of [undefined, '', 'abc', '123', '015553330001']) {
      const res = await call(t, caller, 'post', '/api/contacts', { phone, name: 'x' });
      expect([phone, res.status, res.body.error]).toEqual([phone, 400, 'invalid phone number']);
    }
    for (const method of ['get', 'patch', 'delete'] as const) {
      const res = await call(t, caller, method, '/api/contacts/42', { name: 'x' });
      expect([method, res.status, res.body]).toEqual([method, 400, { error: 'invalid contact id' }]);
      const unknown = await call(t, caller, method, '/api/contacts/00000000-0000-4000-8000-000000000000', { name: 'x' });
      expect([method, unknown.status, unknown.body]).toEqual([method, 404, { error: 'contact not found' }]);
    }
  });

  it('lists newest first and searches name and phone', async () => {
    const { ws, caller } = await setup();
    const phone = randomPhone();
    await call(t, caller, 'post', '/api/contacts', { phone, name: 'Grace Hopper' }).expect(201);
    await call(t, caller, 'post', '/api/contacts', { phone: randomPhone(), name: 'Alan 100%_Turing' }).expect(201);
    await inbox.message(ws.id, { senderName: 'Inbound Person' });

    const all = await call(t, caller, 'get', '/api/contacts');
    expect(all.body.map((c: { name: string }) => c.name)).toEqual(['Inbound Person', 'Alan 100%_Turing', 'Grace Hopper']);
    const names = async (q: string) => (await call(t, caller, 'get', `/api/contacts?q=${encodeURIComponent(q)}`)).body.map((c: { name: string }) => c.name);
    expect(await names('grace')).toEqual(['Grace Hopper']);
    expect(await names(phone.slice(4, 10))).toEqual(['Grace Hopper']);
    expect(await names('%_')).toEqual(['Alan 100%_Turing']);
    expect(await names('nobody')).toEqual([]);
    // Given twice, the search is refused, never read as no search (which listed every contact).
    const twice = await call(t, caller, 'get', '/api/contacts?q=grace&q=alan');
    expect([twice.status, twice.body]).toEqual([400, { error: 'q must be given once, as text' }]);
  });

  it('lists at most the 500 newest contacts', async () => {
    const { ws, caller } = await setup();
    // 501 contacts, one second apart: #0 is the oldest, #500 the newest.
    await t.dataSource.query(
      `INSERT INTO contacts (workspace_id, phone, name, created_at)
       SELECT $1, (990000000000 + i)::text, 'Contact #' || i, now() - interval '1 hour' + i * interval '1 second'
         FROM generate_series(0, 500) AS i`,
      [ws.id],
    );
    const res = await call(t, caller, 'get', '/api/contacts');
    expect(res.status).toBe(200);
    const names: string[] = res.body.map((c: { name: string }) => c.name);
    expect(names).toHaveLength(500);
    expect(names[0]).toBe('Contact #500');
    expect(names[499]).toBe('Contact #1');
    expect(names).not.toContain('Contact #0');
  });

  it('keeps the conversation when its contact is deleted', async () => {
    const { ws, caller } = await setup();
    const conversation = await inbox.conversation(ws.id);
    await call(t, caller, 'delete', `/api/contacts/${conversation.contactId}`).expect(200);
    const res = await call(t, caller, 'get', `/api/conversations/${conversation.id}`);
    expect(res.body).toMatchObject({ id: conversation.id, contact_id: null });
    // The next message recreates the contact and links it again.
    const next = await inbox.message(ws.id, { phone: conversation.chatPhone });
    expect(next.conversation.contactId).not.toBeNull();
  });

  it('needs a write key for changes', async () => {
    const { ws } = await setup();
    const { key } = await t.factories.apiKey(ws.id, 'read');
    const res = await call(t, { key }, 'post', '/api/contacts', { phone: randomPhone() });
    expect([res.status, res.body.error]).toEqual([403, 'API key is read-only']);
    await call(t, { key }, 'get', '/api/contacts').expect(200);
  });
});
