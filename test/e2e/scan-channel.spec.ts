import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { toDataURL } from 'qrcode';
import { QR_CONNECT_FIRST, QR_SCANNED } from '../../src/modules/chat/session/scan-state.service.js';
import { dataOf, listenUrl, openSse } from '../support/sse-client.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import {
  allMessages,
  api,
  chat,
  conversations,
  createE2eApp,
  eventually,
  link,
  messagesOf,
  messageWhen,
  newWorkspace,
  NOTHING_SENT_LIMITS,
  pendingQr,
  sentMessage,
  statusWhen,
  type E2eWorkspace,
  type Json,
} from './e2e-support.js';

/**
 * The scan channel end to end: the whole app with the real Baileys driver against the loopback
 * WhatsApp simulator. Linking, inbound messages, sending and receipts (issue 12, items 1–3).
 */
// Linking a device costs seconds of pure-JS curve math (812 pre-keys) on a loaded machine.
jest.setTimeout(60_000);

const PHONE = '15550100001';

describe('scan channel end to end: link, receive, send', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let ws: E2eWorkspace;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    t = await createE2eApp(sim);
    ws = await newWorkspace(t);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.stop();
  });

  it('connect shows a 256 px QR of exactly the code; the phone scans it: no code waits, linked, then connected with its jid', async () => {
    const res = await chat(t, ws.owner, 'post', '/api/chat/connect');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ connected: false, logged_in: false, qr_pending: true });

    const qr = await pendingQr(t, ws);
    // The code is the one Baileys shows for the simulator's first ref.
    const { refs } = await sim.waitForQr();
    expect(qr.code.slice(qr.code.indexOf('#') + 1).split(',')[0]).toBe(refs[0]);
    expect(qr.error).toBeUndefined();
    const png = Buffer.from(qr.image.slice('data:image/png;base64,'.length), 'base64');
    expect(qr.image.startsWith('data:image/png;base64,')).toBe(true);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([256, 256]);
    // No QR decoder is installed: the image must be the code rendered with the service's options.
    expect(qr.image).toBe(await toDataURL(qr.code, { type: 'image/png', width: 256.5, margin: 2 }));

    // The simulator holds its restart (515) after the pairing: the state between scan and login stays put.
    let restart!: () => void;
    const device = await sim.scanQr(qr.code, PHONE, { restartAfter: new Promise<void>((resolve) => (restart = resolve)) });
    const scanned = await statusWhen(t, ws, 'the scanned session', (s) => s.logged_in === true);
    expect(scanned).toEqual({
      connected: false,
      logged_in: true,
      qr_pending: false,
      jid: device.jid,
      state: 'connecting',
      since: expect.any(String),
      sync: expect.anything(),
      limits: NOTHING_SENT_LIMITS,
      placement: null,
    });
    const linking = await chat(t, { key: ws.key }, 'get', '/api/chat/qr');
    expect(linking.body).toEqual({ pending: false, image: '', error: QR_SCANNED, message: QR_SCANNED });

    restart();
    const linked = await statusWhen(t, ws, 'the linked session', (s) => s.connected === true);
    expect(linked).toEqual({
      connected: true,
      logged_in: true,
      qr_pending: false,
      jid: device.jid,
      state: 'connected',
      since: expect.any(String),
      sync: expect.anything(),
      limits: NOTHING_SENT_LIMITS,
      placement: { state: 'held', explanation: 'a worker holds this number' },
    });
    expect(device.jid).toMatch(new RegExp(`^${PHONE}:\\d+@s\\.whatsapp\\.net$`));

    const after = await chat(t, { key: ws.key }, 'get', '/api/chat/qr');
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ pending: false, image: '', error: QR_CONNECT_FIRST, message: QR_CONNECT_FIRST });
  });

  it('an inbound text becomes a contact, a conversation and a message', async () => {
    await sim.waitForLive(PHONE);
    const from = '4915100200001';
    const id = await sim.deliverText({ to: PHONE, from, name: 'Alice', text: 'hello from the sim' });
    const message = await messageWhen(t, ws, id);
    expect(message).toMatchObject({ direction: 'inbound', content: 'hello from the sim', chat_message_id: id, message_type: 'text' });

    const conversation = (await conversations(t, ws)).find((c) => c.id === message.conversation_id)!;
    expect(conversation).toMatchObject({ channel: 'scan', chat_jid: `${from}@s.whatsapp.net`, chat_phone: from, is_group: false, unread_count: 1 });
    const contacts = (await api(t, ws, 'get', '/api/contacts')).body as Json[];
    expect(contacts.filter((c) => c.phone === from)).toEqual([expect.objectContaining({ phone: from, name: 'Alice' })]);
    expect(conversation.contact_id).toBe(contacts.find((c) => c.phone === from)!.id);
  });

  it('the same stanza redelivered adds nothing', async () => {
    const from = '4915100200002';
    const id = await sim.deliverText({ to: PHONE, from, text: 'only once' });
    await messageWhen(t, ws, id);
    await sim.waitForAck(id, PHONE);
    const before = await conversations(t, ws);

    const ackedAgain = new Promise<void>((resolve) => {
      const listener = (_d: unknown, acked: string): void => {
        if (acked !== id) return;
        sim.events.off('acked', listener);
        resolve();
      };
      sim.events.on('acked', listener);
    });
    await sim.redeliver(id);
    // The device receipts the copy once it has processed it (ingest runs before the ack).
    await ackedAgain;
    // A later message of the same contact, so the redelivery has certainly been handled before it.
    const next = await sim.deliverText({ to: PHONE, from, text: 'and then this' });
    await messageWhen(t, ws, next);

    const conversation = (await conversations(t, ws)).find((c) => c.chat_phone === from)!;
    const texts = (await messagesOf(t, ws, String(conversation.id))).map((m) => m.content);
    // WhatsApp times are whole seconds, so the two may share one and list in either order: what
    // matters is that the redelivered stanza did not add a row.
    expect([...texts].sort()).toEqual(['and then this', 'only once']);
    expect((await conversations(t, ws)).length).toBe(before.length);
  });

  it('a group message keeps the group as the chat (named by its subject) and the contact as its sender', async () => {
    const from = '4915100200003';
    const group = '120363000000000077@g.us';
    sim.group({ jid: group, to: PHONE, subject: 'Family chat', members: [from] });
    const id = await sim.deliverText({ to: PHONE, from, name: 'Gina', group, text: 'hi all' });
    const message = await messageWhen(t, ws, id);
    expect(message).toMatchObject({ content: 'hi all', sender_jid: `${from}@s.whatsapp.net`, sender_name: 'Gina', direction: 'inbound' });
    const conversation = (await conversations(t, ws)).find((c) => c.id === message.conversation_id)!;
    // The group's name comes from its metadata (asked of WhatsApp), never from the writer's push name.
    expect(conversation).toMatchObject({ chat_jid: group, is_group: true, contact_id: null, chat_name: 'Family chat', chat_phone: '' });
    // The sender is not the chat: no 1:1 conversation was opened for them.
    expect((await conversations(t, ws)).filter((c) => c.chat_jid === `${from}@s.whatsapp.net`)).toEqual([]);
  });

  it('a LID-addressed chat keeps the LID as chat id with the phone number beside it, and a reply to it is decrypted by the contact', async () => {
    const from = '4915100200006';
    const id = await sim.deliverText({ to: PHONE, from, name: 'Lia', text: 'written by lid', lid: true });
    const message = await messageWhen(t, ws, id);
    const contact = sim.world.contact(from);
    const conversation = (await conversations(t, ws)).find((c) => c.id === message.conversation_id)!;
    expect(conversation).toMatchObject({ chat_jid: contact.lidJid, chat_phone: from, is_group: false });
    const contacts = (await api(t, ws, 'get', '/api/contacts')).body as Json[];
    expect(contacts.filter((c) => c.phone === from || c.lid === contact.lid)).toEqual([
      expect.objectContaining({ phone: from, lid: contact.lid, name: 'Lia' }),
    ]);

    await sim.waitForLive(PHONE);
    const res = await api(t, ws, 'post', `/api/conversations/${String(conversation.id)}/messages`, { body: 'answered by lid' });
    expect(res.status).toBe(201);
    const sent = await sentMessage(t, ws, String(conversation.id), String((res.body as Json).id));
    expect(sent).toMatchObject({ status: 'sent' });
    const received = await sim.waitForSent((m) => m.id === sent.chat_message_id);
    expect(received).toMatchObject({ to: contact.lidJid, contact: from, text: 'answered by lid' });
  });

  it('a reply into a group is encrypted once with a sender key, and the members decrypt it', async () => {
    const from = '4915100200007';
    const group = '120363000000000078@g.us';
    sim.group({ jid: group, to: PHONE, subject: 'Suppliers', members: ['4915100200008', '4915100200009'] });
    const id = await sim.deliverText({ to: PHONE, from, name: 'Gus', group, text: 'who answers?' });
    const inbound = await messageWhen(t, ws, id);
    await sim.waitForLive(PHONE);

    const res = await api(t, ws, 'post', `/api/conversations/${String(inbound.conversation_id)}/messages`, { body: 'we do' });
    expect(res.status).toBe(201);
    const sent = await sentMessage(t, ws, String(inbound.conversation_id), String((res.body as Json).id));
    expect(sent).toMatchObject({ status: 'sent' });
    const received = await sim.waitForSent((m) => m.id === sent.chat_message_id);
    expect(received.error).toBeUndefined();
    expect(received).toMatchObject({ to: group, group, from: PHONE, text: 'we do' });
    expect(sim.senderKeys.has(group, sim.devicesOf(PHONE)[0]!.jid)).toBe(true);
    expect(await messageWhen(t, ws, received.id)).toMatchObject({
      direction: 'outbound',
      content: 'we do',
      status: 'sent',
      sender_jid: `${PHONE}@s.whatsapp.net`,
    });
    const conversation = (await conversations(t, ws)).find((c) => c.id === inbound.conversation_id)!;
    expect(conversation).toMatchObject({ chat_jid: group, chat_name: 'Suppliers' });
  });

  it('messages written while the device was offline arrive once after it reconnects', async () => {
    const from = '4915100200004';
    // The socket drops (428); the service reconnects by itself with backoff.
    const reconnected = new Promise<void>((resolve) => {
      const listener = (device: { account: { phone: string } }): void => {
        if (device.account.phone !== PHONE) return;
        sim.events.off('login', listener);
        resolve();
      };
      sim.events.on('login', listener);
    });
    const writeWhileAway = new Promise<string[]>((resolve) => {
      sim.events.once('offline', () => {
        void (async () => {
          const ids = [];
          for (const text of ['away one', 'away two']) ids.push(await sim.deliverText({ to: PHONE, from, text }));
          resolve(ids);
        })();
      });
    });
    sim.dropConnection(PHONE);
    const ids = await writeWhileAway;
    await reconnected;
    for (const id of ids) await messageWhen(t, ws, id);
    for (const id of ids) await sim.waitForAck(id, PHONE);
    const conversation = (await conversations(t, ws)).find((c) => c.chat_phone === from)!;
    const got = await messagesOf(t, ws, String(conversation.id));
    expect(got.map((m) => m.content).sort()).toEqual(['away one', 'away two']);
    await statusWhen(t, ws, 'connected again', (s) => s.connected === true);
  });

  it("the initial history sync: the phone's chats land read and quiet, and sync.progress runs to the phone's 100 %", async () => {
    const phone = '15550100011';
    const other = await newWorkspace(t);
    sim.setInitialHistory(
      phone,
      [
        { contact: '4915100200010', name: 'Hanna', messages: [{ text: 'old question' }, { text: 'old answer', fromMe: true }] },
        { contact: '4915100200011', messages: [{ text: 'older still' }] },
      ],
      { lastBatch: false },
    );
    const stream = await openSse(`${await listenUrl(t.app)}/api/events`, { Authorization: `Bearer ${other.key}` });
    try {
      await link(t, sim, other, phone);
      // The bootstrap batch names no progress: its chats are in, the sync still runs.
      await eventually('the bootstrap batch stored', async () => (await allMessages(t, other)).length === 3, 20_000);
      expect((await statusWhen(t, other, 'sync running', (s) => (s.sync as Json).state === 'running')).sync).toEqual({ state: 'running', progress: 0 });

      await sim.pushHistory(phone, [{ contact: '4915100200012', messages: [{ text: 'a recent one' }] }], { progress: 40 });
      await statusWhen(t, other, 'sync at 40 %', (s) => (s.sync as Json).progress === 40);
      await sim.pushHistory(phone, [], { progress: 100 });
      expect((await statusWhen(t, other, 'sync done', (s) => (s.sync as Json).state === 'done')).sync).toEqual({ state: 'done', progress: 100 });

      await stream.waitFor('the last sync.progress', (c) => c.events.some((e) => e.event === 'sync.progress' && dataOf(e).done === true));
      const progress = stream.events.filter((e) => e.event === 'sync.progress').map((e) => dataOf(e));
      expect(progress.at(-1)).toEqual({ progress: 100, chats: 3, messages: 4, done: true });
      expect(progress).toContainEqual(expect.objectContaining({ progress: 40, done: false }));
      // History is neither unread nor a per-message live event.
      expect(stream.events.filter((e) => e.event === 'message.created')).toEqual([]);
      const chats = await conversations(t, other);
      expect(chats).toHaveLength(3);
      expect(chats.every((c) => c.unread_count === 0)).toBe(true);
      expect(chats.find((c) => c.chat_phone === '4915100200010')).toMatchObject({ chat_name: 'Hanna' });
      expect((await allMessages(t, other)).filter((m) => m.direction === 'outbound').map((m) => m.content)).toEqual(['old answer']);
    } finally {
      stream.close();
    }
  });

  it('a reply is sent through the socket, decrypted by the contact, and its receipts move it to delivered and read', async () => {
    const from = '4915100200005';
    const id = await sim.deliverText({ to: PHONE, from, name: 'Rita', text: 'can you answer?' });
    const inbound = await messageWhen(t, ws, id);
    await sim.waitForLive(PHONE);

    const res = await api(t, ws, 'post', `/api/conversations/${String(inbound.conversation_id)}/messages`, { body: 'answered from the inbox' });
    expect(res.status).toBe(201);
    // Queued first (the number's paced outbound queue), then sent.
    expect(res.body).toMatchObject({ direction: 'outbound', content: 'answered from the inbox', status: 'pending' });
    const sentRow = await sentMessage(t, ws, String(inbound.conversation_id), String((res.body as Json).id));
    // Sent by the linked number: its own jid (no device part) is the sender, not the chat's.
    expect(sentRow).toMatchObject({ direction: 'outbound', content: 'answered from the inbox', status: 'sent', sender_jid: `${PHONE}@s.whatsapp.net` });
    expect(inbound).toMatchObject({ direction: 'inbound', sender_jid: `${from}@s.whatsapp.net`, sender_name: 'Rita' });
    const received = await sim.waitForSent((m) => m.id === sentRow.chat_message_id);
    expect(received).toMatchObject({ text: 'answered from the inbox', contact: from, from: PHONE });

    sim.sendReceipt(received.id, 'delivered');
    await messageWhen(t, ws, received.id, (m) => m.status === 'delivered');
    sim.sendReceipt(received.id, 'read');
    const read = await messageWhen(t, ws, received.id, (m) => m.status === 'read');
    expect(read).toMatchObject({ id: sentRow.id, direction: 'outbound', content: 'answered from the inbox', sender_jid: `${PHONE}@s.whatsapp.net` });
  });
});
