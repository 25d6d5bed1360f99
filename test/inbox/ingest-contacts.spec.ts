import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

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
});
