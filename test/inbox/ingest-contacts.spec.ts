import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { InboxFactories, randomLid, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';
import { eventually } from '../chat/chat-support.js';

// How ingest finds, fills in and merges the contact of a one-to-one chat.
describe('inbox ingest: contacts', () => {
  let t: TestApp;
  let inbox: InboxFactories;

  beforeAll(async () => {
    t = await createTestApp();
    inbox = new InboxFactories(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  const contactsOf = (workspaceId: string): Promise<{ id: string; phone: string | null; lid: string | null; name: string }[]> =>
    t.dataSource.query('SELECT id, phone, lid, name FROM contacts WHERE workspace_id = $1 ORDER BY created_at', [workspaceId]);

  /** A person first seen by phone only (contact A) and, in a LID-addressed chat, by LID only (contact B). */
  async function splitPerson(workspaceId: string, names: { byPhone?: string; byLid?: string } = {}) {
    const phone = randomPhone();
    const lid = randomLid();
    const phoneChat = await inbox.message(workspaceId, { phone, senderName: names.byPhone ?? '', contact: { phone } });
    const lidChat = await inbox.message(workspaceId, {
      chatJid: `${lid}@lid`,
      senderJid: `${lid}@lid`,
      senderName: names.byLid ?? '',
      contact: { lid },
    });
    expect(phoneChat.conversation.contactId).not.toBe(lidChat.conversation.contactId);
    return { phone, lid, a: phoneChat.conversation, b: lidChat.conversation };
  }

  it('matches a contact by phone or by LID and fills in the id it lacked', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    const lid = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    // First seen by phone only.
    const byPhone = await inbox.message(ws.id, { phone, contact: { phone } });
    // Then a message naming both: same contact, LID filled in.
    const both = await inbox.message(ws.id, { phone, contact: { phone, lid: `${lid}:3@lid` } });
    expect(both.conversation.contactId).toBe(byPhone.conversation.contactId);
    // Then a chat addressed by LID only (a different chat jid): still the same contact.
    const byLid = await inbox.message(ws.id, { chatJid: `${lid}@lid`, senderJid: `${lid}@lid`, contact: { lid: `${lid}@lid` } });
    expect(byLid.conversation.id).not.toBe(byPhone.conversation.id);
    expect(byLid.conversation.contactId).toBe(byPhone.conversation.contactId);
    const contacts = await t.dataSource.query('SELECT phone, lid FROM contacts WHERE workspace_id = $1', [ws.id]);
    expect(contacts).toEqual([{ phone, lid }]);
  });

  it('creates a contact known only by LID and adds the phone when it shows up', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    const lid = `77${Date.now()}`;
    const first = await inbox.message(ws.id, { chatJid: `${lid}@lid`, contact: { lid } });
    expect(first.conversation.chatPhone).toBe('');
    const later = await inbox.message(ws.id, { chatJid: `${lid}@lid`, contact: { lid, phone: `+${phone}` } });
    expect(later.conversation.contactId).toBe(first.conversation.contactId);
    expect(later.conversation.chatPhone).toBe(phone);
    const contacts = await t.dataSource.query('SELECT phone, lid FROM contacts WHERE workspace_id = $1', [ws.id]);
    expect(contacts).toEqual([{ phone, lid }]);
  });

  describe('merging a person known twice', () => {
    it('merges a phone-only and a LID-only contact into one when a message names both', async () => {
      const { workspace, key } = await t.factories.workspaceWithOwner();
      const ws = workspace.id;
      const caller: Caller = { key };
      const { phone, lid, a, b } = await splitPerson(ws, { byLid: 'Bee' });
      expect(await contactsOf(ws)).toHaveLength(2);
      const published: Parameters<LiveEventsService['publish']>[] = [];
      await t.app.get(LiveEventsService).markWatched([ws]);

      const publish = jest.spyOn(t.app.get(LiveEventsService), 'publish');
      const both = await inbox.message(ws, { phone, senderName: '', contact: { phone, lid } });
      // Live events go out after the caller's answer (best effort, never awaited by ingest).
      await eventually('the live events', () => publish.mock.calls.length > 0);
      published.push(...publish.mock.calls);
      publish.mockRestore();
      expect(both.created).toBe(true);
      // A (the phone contact) is kept, with B's LID and B's name (A had none); B is gone.
      expect(both.conversation).toMatchObject({ id: a.id, contactId: a.contactId });
      expect(await contactsOf(ws)).toEqual([{ id: a.contactId, phone, lid, name: 'Bee' }]);
      const links = await t.dataSource.query('SELECT id, contact_id FROM conversations WHERE workspace_id = $1 ORDER BY id', [ws]);
      expect(links).toEqual([a.id, b.id].sort().map((id) => ({ id, contact_id: a.contactId })));
      // Open Consoles learn that the LID chat now belongs to A.
      const updates = published.filter(([id, name]) => id === ws && name === 'conversation.updated').map(([, , data]) => data);
      expect(updates).toContainEqual(expect.objectContaining({ id: b.id, contact_id: a.contactId }));

      const contacts = await call(t, caller, 'get', '/api/contacts').expect(200);
      expect(contacts.body).toEqual([expect.objectContaining({ id: a.contactId, phone, lid, name: 'Bee' })]);
      const conversations = await call(t, caller, 'get', '/api/conversations').expect(200);
      expect(conversations.body.map((c: { contact_id: string }) => c.contact_id)).toEqual([a.contactId, a.contactId]);
      await call(t, caller, 'get', `/api/contacts/${b.contactId}`).expect(404);
    });

    it("keeps the phone contact's own name when it has one", async () => {
      const ws = (await t.factories.workspace()).id;
      const { phone, lid, a } = await splitPerson(ws, { byPhone: 'Ada', byLid: 'ada phone 2' });
      await inbox.message(ws, { phone, contact: { phone, lid, name: 'Someone else' } });
      expect(await contactsOf(ws)).toEqual([{ id: a.contactId, phone, lid, name: 'Ada' }]);
    });

    it('merges once when several messages naming both arrive at the same time', async () => {
      const ws = (await t.factories.workspace()).id;
      const { phone, lid, a, b } = await splitPerson(ws);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          i % 2 === 0
            ? inbox.message(ws, { phone, contact: { phone, lid } })
            : inbox.message(ws, { chatJid: `${lid}@lid`, senderJid: `${lid}@lid`, contact: { phone, lid } }),
        ),
      );
      expect(results.every((r) => r.created)).toBe(true);
      expect(await contactsOf(ws)).toEqual([expect.objectContaining({ id: a.contactId, phone, lid })]);
      const links: { contact_id: string }[] = await t.dataSource.query('SELECT DISTINCT contact_id FROM conversations WHERE workspace_id = $1', [ws]);
      expect(links).toEqual([{ contact_id: a.contactId }]);
      expect(b.contactId).not.toBe(a.contactId);
    });

    it('does not merge on a repeated message: a repeat changes nothing', async () => {
      const ws = (await t.factories.workspace()).id;
      const phone = randomPhone();
      const lid = randomLid();
      const input = inbox.inbound({ phone, contact: { phone } });
      await inbox.ingest.ingest(ws, input);
      await inbox.message(ws, { chatJid: `${lid}@lid`, contact: { lid } });
      const before = await contactsOf(ws);
      const repeat = await inbox.ingest.ingest(ws, { ...input, contact: { phone, lid } });
      expect(repeat.created).toBe(false);
      expect(await contactsOf(ws)).toEqual(before);
    });

    it('does not merge contacts whose other ids disagree (two people, or stale data)', async () => {
      const ws = (await t.factories.workspace()).id;
      const phone = randomPhone();
      const lid = randomLid();
      // The phone's contact already has another LID.
      await inbox.message(ws, { phone, contact: { phone, lid: randomLid() } });
      const lidChat = await inbox.message(ws, { chatJid: `${lid}@lid`, contact: { lid } });
      const next = await inbox.message(ws, { chatJid: `${lid}@lid`, contact: { phone, lid } });
      expect(next.conversation).toMatchObject({ id: lidChat.conversation.id, contactId: lidChat.conversation.contactId });
      expect(await contactsOf(ws)).toHaveLength(2);
    });

    it('leaves the merge to the live path: a history batch links the phone contact and keeps both', async () => {
      const ws = (await t.factories.workspace()).id;
      const phone = randomPhone();
      const lid = randomLid();
      const lidChat = await inbox.message(ws, { chatJid: `${lid}@lid`, contact: { lid } });
      const byPhone = await inbox.message(ws, { chatJid: `${randomPhone()}@s.whatsapp.net`, contact: { phone } });
      const history = [inbox.inbound({ phone, contact: { phone, lid }, timestamp: new Date(Date.now() - 60_000) })];
      expect(await inbox.ingest.ingestBatch(ws, history)).toMatchObject({ inserted: 1, conversationsCreated: 1 });
      const [chat] = await t.dataSource.query('SELECT contact_id FROM conversations WHERE workspace_id = $1 AND chat_jid = $2', [
        ws,
        `${phone}@s.whatsapp.net`,
      ]);
      expect(chat.contact_id).toBe(byPhone.conversation.contactId);
      expect((await contactsOf(ws)).map((c) => c.id).sort()).toEqual([lidChat.conversation.contactId, byPhone.conversation.contactId].sort());
    });
  });
});
