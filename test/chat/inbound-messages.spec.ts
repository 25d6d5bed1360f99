import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ScanMessage } from '../../src/modules/chat/driver/scan-driver.port.js';
import type { ScanDataEvent } from '../../src/modules/chat/session/scan-sessions.port.js';
import { inboxState } from '../inbox/inbox-state.js';
import { messageId, randomLid, randomPhone } from '../support/inbox-factories.js';
import { dataOf, listenUrl, openSse } from '../support/sse-client.js';
import { createInboundTestApp, type InboundTestApp, scanMessage, storedMessage } from './inbound-support.js';

/** The driver's edit of `message` by its own sender, in its chat. */
const editOf = (message: ScanMessage, content: string, externalId = message.externalId): ScanDataEvent => ({
  type: 'edits',
  edits: [{ chatJid: message.chatJid, chatJidAlt: null, externalId, content, senderJid: message.senderJid, senderJidAlt: null, fromMe: message.fromMe }],
});

describe('scan inbound: messages', () => {
  let s: InboundTestApp;
  beforeAll(async () => {
    s = await createInboundTestApp();
  });
  afterAll(async () => {
    await s?.close();
  });

  const contactsOf = (workspaceId: string): Promise<{ phone: string | null; lid: string | null; name: string }[]> =>
    s.t.dataSource.query('SELECT phone, lid, name FROM contacts WHERE workspace_id = $1', [workspaceId]);
  const conversationsOf = (workspaceId: string): Promise<Record<string, unknown>[]> =>
    s.t.dataSource.query('SELECT * FROM conversations WHERE workspace_id = $1', [workspaceId]);

  it('stores a one-to-one text as contact, conversation and inbound message, publishes message.created and runs the hooks', async () => {
    const { workspace, key } = await s.t.factories.workspaceWithOwner();
    const stream = await openSse(`${await listenUrl(s.t.app)}/api/events`, { Authorization: `Bearer ${key}` });
    try {
      const phone = randomPhone();
      const message = scanMessage({ phone, senderName: 'Grace', content: 'Hi there' });
      await s.handler.handle(workspace.id, { type: 'messages', kind: 'notify', messages: [message] });

      expect(await contactsOf(workspace.id)).toEqual([{ phone, lid: null, name: 'Grace' }]);
      const [conversation] = await conversationsOf(workspace.id);
      expect(conversation).toMatchObject({ channel: 'scan', chat_jid: `${phone}@s.whatsapp.net`, chat_phone: phone, is_group: false, unread_count: 1 });
      expect(await storedMessage(s.t.dataSource, workspace.id, message.externalId)).toMatchObject({
        direction: 'inbound',
        sender_jid: `${phone}@s.whatsapp.net`,
        sender_name: 'Grace',
        message_type: 'text',
        content: 'Hi there',
        status: 'delivered',
      });
      expect(s.hook.sawMessage(message.externalId)).toBe(true);
      await stream.waitFor('message.created', (c) => c.events.some((e) => e.event === 'message.created'));
      const created = dataOf(stream.events.find((e) => e.event === 'message.created')!);
      expect(created).toMatchObject({ chat_message_id: message.externalId, direction: 'inbound', content: 'Hi there' });
    } finally {
      stream.close();
    }
  });

  it('keeps a message whose text or names hold NUL characters, without them (Postgres cannot store one; the phone will not send it again)', async () => {
    const { workspace } = await s.t.factories.workspaceWithOwner();
    const phone = randomPhone();
    const message = scanMessage({ phone, senderName: 'Nul\u0000Name', content: 'before\u0000after' });
    await s.handler.handle(workspace.id, { type: 'messages', kind: 'notify', messages: [message] });
    expect(await storedMessage(s.t.dataSource, workspace.id, message.externalId)).toMatchObject({ sender_name: 'NulName', content: 'beforeafter' });
    expect(await contactsOf(workspace.id)).toEqual([{ phone, lid: null, name: 'NulName' }]);
    await s.handler.handle(workspace.id, editOf(message, 'edited\u0000text'));
    expect(await storedMessage(s.t.dataSource, workspace.id, message.externalId)).toMatchObject({ content: 'editedtext' });
  });

  it('an edit replaces the text (or caption) of the message it names, as the messages API shows; an edit of an unknown message changes nothing', async () => {
    const { workspace, key } = await s.t.factories.workspaceWithOwner();
    const phone = randomPhone();
    const message = scanMessage({ phone, content: 'teh offer' });
    await s.handler.handle(workspace.id, { type: 'messages', kind: 'notify', messages: [message] });
    const before = await inboxState(s.t, workspace.id);
    await s.handler.handle(workspace.id, editOf(message, 'x', 'NO-SUCH-ID'));
    expect(await inboxState(s.t, workspace.id)).toEqual(before);

    await s.handler.handle(workspace.id, editOf(message, 'the offer'));
    const [conversation] = await conversationsOf(workspace.id);
    const res = await s.t
      .http()
      .get(`/api/conversations/${String(conversation!.id)}/messages`)
      .set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(200);
    expect(res.body.messages).toEqual([
      expect.objectContaining({ chat_message_id: message.externalId, content: 'the offer', message_type: 'text', direction: 'inbound' }),
    ]);
    const list = await s.t.http().get('/api/conversations').set('Authorization', `Bearer ${key}`);
    expect(list.body[0]).toMatchObject({ last_message_preview: 'the offer' });
    // An edit is no new message: no second hook run.
    expect(s.hook.afterCommit.filter((e) => e.message.externalId === message.externalId)).toHaveLength(1);
  });

  it('an edit of an older message of the same second leaves the preview of the latest one', async () => {
    const { workspace, key } = await s.t.factories.workspaceWithOwner();
    const phone = randomPhone();
    const timestamp = new Date(Math.floor(Date.now() / 1000) * 1000);
    const first = scanMessage({ phone, content: 'first', timestamp });
    const second = scanMessage({ phone, content: 'second', timestamp });
    await s.handler.handle(workspace.id, { type: 'messages', kind: 'notify', messages: [first] });
    await s.handler.handle(workspace.id, { type: 'messages', kind: 'notify', messages: [second] });
    const preview = async () =>
      ((await s.t.http().get('/api/conversations').set('Authorization', `Bearer ${key}`)).body as Record<string, unknown>[])[0]!.last_message_preview;
    expect(await preview()).toBe('second');

    await s.handler.handle(workspace.id, editOf(first, 'first, edited'));
    expect(await preview()).toBe('second');
    await s.handler.handle(workspace.id, editOf(second, 'second, edited'));
    expect(await preview()).toBe('second, edited');
  });

  it('a group conversation is named by the subject given with its message, and takes a new subject; the sender keeps their own name', async () => {
    const { workspace, key } = await s.t.factories.workspaceWithOwner();
    const group = `120363${Math.floor(Math.random() * 1e12)}@g.us`;
    const member = `${randomPhone()}@s.whatsapp.net`;
    const message = scanMessage({ chatJid: group, isGroup: true, chatName: 'Suppliers', senderJid: member, senderName: 'Gus' });
    await s.handler.handle(workspace.id, { type: 'messages', kind: 'notify', messages: [message] });
    const list = async () => (await s.t.http().get('/api/conversations').set('Authorization', `Bearer ${key}`)).body as Record<string, unknown>[];
    expect(await list()).toEqual([expect.objectContaining({ chat_jid: group, is_group: true, chat_name: 'Suppliers', chat_phone: '', contact_id: null })]);
    await s.handler.handle(workspace.id, {
      type: 'group-names',
      names: [
        { chatJid: group, name: 'Suppliers 2026' },
        { chatJid: '120363999@g.us', name: 'not ours' },
      ],
    });
    expect(await list()).toEqual([expect.objectContaining({ chat_jid: group, chat_name: 'Suppliers 2026' })]);
    const conversationId = String((await list())[0]!.id);
    const messages = await s.t.http().get(`/api/conversations/${conversationId}/messages`).set('Authorization', `Bearer ${key}`);
    expect(messages.body.messages).toEqual([expect.objectContaining({ sender_jid: member, sender_name: 'Gus' })]);
  });

  it('adds nothing when the same message arrives again (live, then from the offline queue)', async () => {
    const ws = await s.t.factories.workspace();
    const message = scanMessage();
    await s.handler.handle(ws.id, { type: 'messages', kind: 'notify', messages: [message] });
    const before = await inboxState(s.t, ws.id);
    const hooked = s.hook.afterCommit.length;
    await s.handler.handle(ws.id, { type: 'messages', kind: 'append', messages: [{ ...message }] });
    expect(await inboxState(s.t, ws.id)).toEqual(before);
    expect(s.hook.afterCommit.length).toBe(hooked);
  });

  it('keeps the phone of a LID-addressed chat from its alternate jid: the contact holds both, chat_phone is set', async () => {
    const ws = await s.t.factories.workspace();
    const phone = randomPhone();
    const lid = randomLid();
    const message = scanMessage({
      chatJid: `${lid}@lid`,
      chatJidAlt: `${phone}@s.whatsapp.net`,
      senderJid: `${lid}@lid`,
      senderJidAlt: `${phone}@s.whatsapp.net`,
      senderName: 'Lin',
    });
    await s.handler.handle(ws.id, { type: 'messages', kind: 'notify', messages: [message] });
    expect(await contactsOf(ws.id)).toEqual([{ phone, lid, name: 'Lin' }]);
    expect(await conversationsOf(ws.id)).toEqual([expect.objectContaining({ chat_jid: `${lid}@lid`, chat_phone: phone })]);
  });

  it('keeps sender_jid apart from chat_jid in groups, and links no contact to the group', async () => {
    const ws = await s.t.factories.workspace();
    const sender = randomPhone();
    const group = `120363${Math.floor(Math.random() * 1e12)}@g.us`;
    const message = scanMessage({ chatJid: group, isGroup: true, senderJid: `${sender}@s.whatsapp.net`, senderName: 'Bob', content: 'hi team' });
    await s.handler.handle(ws.id, { type: 'messages', kind: 'notify', messages: [message] });
    expect(await conversationsOf(ws.id)).toEqual([expect.objectContaining({ chat_jid: group, is_group: true, contact_id: null, chat_phone: '' })]);
    expect(await storedMessage(s.t.dataSource, ws.id, message.externalId)).toMatchObject({
      sender_jid: `${sender}@s.whatsapp.net`,
      sender_name: 'Bob',
      direction: 'inbound',
    });
    expect(await contactsOf(ws.id)).toEqual([]);
  });

  it('stores a message sent from the phone as outbound, without hooks, unread or our own name on the contact', async () => {
    const ws = await s.t.factories.workspace();
    const phone = randomPhone();
    const own = scanMessage({ phone, fromMe: true, senderJid: '4915100000001@s.whatsapp.net', senderName: 'Our Shop', content: 'sent from the phone' });
    await s.handler.handle(ws.id, { type: 'messages', kind: 'notify', messages: [own] });
    expect(await storedMessage(s.t.dataSource, ws.id, own.externalId)).toMatchObject({ direction: 'outbound', status: 'sent', content: 'sent from the phone' });
    expect(s.hook.sawMessage(own.externalId)).toBe(false);
    expect(await conversationsOf(ws.id)).toEqual([expect.objectContaining({ unread_count: 0, chat_phone: phone, chat_name: '' })]);
    expect(await contactsOf(ws.id)).toEqual([{ phone, lid: null, name: '' }]);

    // The person's answer is inbound again, and reaches the hooks.
    const reply = scanMessage({ phone, senderName: 'Kim' });
    await s.handler.handle(ws.id, { type: 'messages', kind: 'notify', messages: [reply] });
    expect(s.hook.sawMessage(reply.externalId)).toBe(true);
  });

  it('stores what the inbox cannot show as unsupported, and one bad message does not stop the rest', async () => {
    const ws = await s.t.factories.workspace();
    const call = scanMessage({ type: 'unsupported', content: '[a call]' });
    const broken = scanMessage({ timestamp: new Date(Number.NaN) });
    const fine = scanMessage();
    await s.handler.handle(ws.id, { type: 'messages', kind: 'notify', messages: [call, broken, fine] });
    const rows: { external_id: string; message_type: string; content: string }[] = await s.t.dataSource.query(
      'SELECT external_id, message_type, content FROM messages WHERE workspace_id = $1 ORDER BY created_at, external_id',
      [ws.id],
    );
    expect(rows.map((r) => r.external_id).sort()).toEqual([call.externalId, fine.externalId].sort());
    expect(rows.find((r) => r.external_id === call.externalId)).toMatchObject({ message_type: 'unsupported', content: '[a call]' });
  });

  it('moves a message status forward only, by channel id, with message.updated', async () => {
    const { workspace, key } = await s.t.factories.workspaceWithOwner();
    const own = scanMessage({ fromMe: true });
    await s.handler.handle(workspace.id, { type: 'messages', kind: 'notify', messages: [own] });
    const stream = await openSse(`${await listenUrl(s.t.app)}/api/events`, { Authorization: `Bearer ${key}` });
    try {
      const receipt = (status: 'sent' | 'delivered' | 'read') => ({ chatJid: own.chatJid, externalId: own.externalId, status });
      await s.handler.handle(workspace.id, { type: 'receipts', receipts: [receipt('delivered')] });
      expect(await storedMessage(s.t.dataSource, workspace.id, own.externalId)).toMatchObject({ status: 'delivered' });
      await s.handler.handle(workspace.id, { type: 'receipts', receipts: [receipt('read'), receipt('delivered'), receipt('sent')] });
      expect(await storedMessage(s.t.dataSource, workspace.id, own.externalId)).toMatchObject({ status: 'read' });
      // A receipt for a message we never stored changes nothing and fails nothing.
      await s.handler.handle(workspace.id, { type: 'receipts', receipts: [{ chatJid: own.chatJid, externalId: messageId(), status: 'read' }] });
      await stream.waitFor('two message.updated', (c) => c.events.filter((e) => e.event === 'message.updated').length >= 2);
      expect(stream.events.filter((e) => e.event === 'message.updated').map((e) => dataOf(e).status)).toEqual(['delivered', 'read']);
    } finally {
      stream.close();
    }
  });

  it('links a LID mapping to the contacts it names: one person known by phone and by LID becomes one contact', async () => {
    const ws = await s.t.factories.workspace();
    const phone = randomPhone();
    const lid = randomLid();
    await s.handler.handle(ws.id, { type: 'messages', kind: 'notify', messages: [scanMessage({ phone, senderName: 'Pat' })] });
    const lidOnly = scanMessage({ chatJid: `${lid}@lid`, senderJid: `${lid}@lid`, senderName: '' });
    await s.handler.handle(ws.id, { type: 'messages', kind: 'notify', messages: [lidOnly] });
    expect(await contactsOf(ws.id)).toHaveLength(2);

    await s.handler.handle(ws.id, { type: 'lid-mappings', mappings: [{ lid: `${lid}@lid`, phone: `${phone}@s.whatsapp.net` }] });
    expect(await contactsOf(ws.id)).toEqual([{ phone, lid, name: 'Pat' }]);
    const conversations = await conversationsOf(ws.id);
    expect(conversations).toHaveLength(2);
    expect(new Set(conversations.map((c) => c.contact_id)).size).toBe(1);
    expect(conversations.find((c) => c.chat_jid === `${lid}@lid`)).toMatchObject({ chat_phone: phone });
  });
});
