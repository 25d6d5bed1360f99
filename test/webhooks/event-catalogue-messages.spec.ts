import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { proto } from '@whiskeysockets/baileys';
import { Webhook } from 'standardwebhooks';
import { asyncError, callback, messagesChange, status } from '../fakes/graph-api/index.js';
import {
  addMetaWebhook,
  connectedWorkspace,
  createMetaTestApp,
  deliverAndSettle,
  type MetaTestApp,
  newPhone,
  startConversation,
  WEBHOOK_ENV as META_WEBHOOK_ENV,
} from '../meta/meta-support.js';
import { api, createE2eApp, link, messageWhen, newWorkspace, type E2eWorkspace } from '../e2e/e2e-support.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { addWebhook, eventually, type Owned, Receiver, secretOf, WEBHOOK_ENV } from './webhook-support.js';

/**
 * The message events of the catalogue (message.status, message.sent, message.updated,
 * message.deleted, message.reaction) through the real Baileys driver and the simulator to a
 * loopback receiver, each body verified with the Standard Webhooks reference library.
 */
jest.setTimeout(60_000);

const PHONE = '15550100382';
const CONTACT = '4915100382001';
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const MESSAGE_EVENTS = ['message.status', 'message.sent', 'message.updated', 'message.deleted', 'message.reaction'];
type Body = Record<string, unknown>;

describe('message events of the catalogue (real driver, simulator)', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let receiver: Receiver;
  let ws: E2eWorkspace;
  let secret: string;
  let conversationId: string;
  let inboundId: string;

  beforeAll(async () => {
    [sim, receiver] = await Promise.all([WhatsAppSimulator.start(), Receiver.start()]);
    t = await createE2eApp(sim, { env: WEBHOOK_ENV });
    ws = await newWorkspace(t);
    const owned: Owned = {
      workspaceId: ws.workspaceId,
      cookie: ws.owner.cookie,
      as: (method, path) => t.http()[method](path).set('Cookie', ws.owner.cookie).set('X-Tenant-ID', ws.workspaceId),
    };
    await addWebhook(owned, receiver.url('/messages'), { events: MESSAGE_EVENTS });
    await addWebhook(owned, receiver.url('/chat-only'), { events: ['scan.chat'] });
    secret = await secretOf(owned);
    await link(t, sim, ws, PHONE);
    inboundId = await sim.deliverText({ to: PHONE, from: CONTACT, name: 'Mia', text: 'hello there' });
    conversationId = String((await messageWhen(t, ws, inboundId)).conversation_id);
    await sim.waitForLive(PHONE);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await sim?.stop();
  });

  const events = (): Body[] =>
    receiver.at('/messages').map((request) => {
      const body = new Webhook(secret).verify(request.body.toString('utf8'), request.headers as Record<string, string>) as Body;
      expect(request.headers['x-svc-event']).toBe(body.event);
      return body;
    });
  const eventWhen = (what: string, check: (body: Body) => boolean): Promise<Body> => eventually(what, async () => events().find(check) ?? null, 20_000);
  const patch = (path: string, body: object) => t.http().patch(path).set('Authorization', `Bearer ${ws.key}`).send(body);
  const remove = (path: string) => t.http().delete(path).set('Authorization', `Bearer ${ws.key}`);

  let sentId = '';
  let sentChatId = '';

  it('an API send gives message.sent with source api, every field of the message flat', async () => {
    const sent = await api(t, ws, 'post', `/api/conversations/${conversationId}/messages`, { body: 'on my way' });
    expect(sent.status).toBe(201);
    sentId = String(sent.body.id);
    const body = await eventWhen('message.sent', (b) => b.event === 'message.sent' && b.message_id === sentId);
    expect(body).toMatchObject({
      event: 'message.sent',
      channel: 'scan',
      workspace_id: ws.workspaceId,
      timestamp: expect.stringMatching(RFC3339),
      conversation_id: conversationId,
      message_id: sentId,
      chat_message_id: '',
      chat_jid: `${CONTACT}@s.whatsapp.net`,
      is_group: false,
      direction: 'outbound',
      content: 'on my way',
      status: 'pending',
      error: '',
      sent_at: expect.stringMatching(RFC3339),
      source: 'api',
    });
    expect(body).not.toHaveProperty('id');
    expect(typeof body.seq).toBe('number');
    sentChatId = String((await sim.waitForSent((m) => m.text === 'on my way')).id);
    // The channel took it: message.status `sent`, from `pending`, with the channel's id.
    expect(await eventWhen('sent', (b) => b.event === 'message.status' && b.status === 'sent' && b.message_id === sentId)).toMatchObject({
      previous_status: 'pending',
      chat_message_id: sentChatId,
      error: '',
    });
  });

  it('delivered, read and played receipts give message.status; played after read too', async () => {
    await eventually('the channel id stored', async () => (await messageWhen(t, ws, sentChatId)).status === 'sent' || null);
    sim.sendReceipt(sentChatId, 'delivered');
    const delivered = await eventWhen('delivered', (b) => b.event === 'message.status' && b.status === 'delivered');
    expect(delivered).toMatchObject({ message_id: sentId, chat_message_id: sentChatId, previous_status: 'sent', error: '', direction: 'outbound' });
    sim.sendReceipt(sentChatId, 'read');
    expect(await eventWhen('read', (b) => b.event === 'message.status' && b.status === 'read')).toMatchObject({ previous_status: 'delivered' });
    sim.sendReceipt(sentChatId, 'played');
    expect(await eventWhen('played', (b) => b.event === 'message.status' && b.status === 'played')).toMatchObject({
      previous_status: 'read',
      message_id: sentId,
    });
    expect(await messageWhen(t, ws, sentChatId)).toMatchObject({ status: 'read' });
  });

  it('an edit through the API gives message.updated with the text before', async () => {
    const edited = await patch(`/api/conversations/${conversationId}/messages/${sentId}`, { body: 'on my way, 5 min' });
    expect(edited.status).toBe(200);
    expect(await eventWhen('message.updated', (b) => b.event === 'message.updated')).toMatchObject({
      message_id: sentId,
      content: 'on my way, 5 min',
      previous_content: 'on my way',
      edited_by: '',
      edited: true,
    });
  });

  it('a contact’s reaction added and taken back gives message.reaction twice', async () => {
    const key: proto.IMessageKey = { remoteJid: `${PHONE}@s.whatsapp.net`, id: inboundId, fromMe: true };
    const react = (emoji: string) =>
      sim.deliverMessage({ to: PHONE, from: CONTACT, message: { reactionMessage: { key, text: emoji, senderTimestampMs: Date.now() } } });
    await react('👍');
    expect(await eventWhen('reaction added', (b) => b.event === 'message.reaction' && b.removed === false)).toMatchObject({
      emoji: '👍',
      reactor_jid: `${CONTACT}@s.whatsapp.net`,
      chat_message_id: inboundId,
      direction: 'inbound',
    });
    await react('');
    expect(await eventWhen('reaction removed', (b) => b.event === 'message.reaction' && b.removed === true)).toMatchObject({
      emoji: '',
      reactor_jid: `${CONTACT}@s.whatsapp.net`,
      reactions: [],
    });
  });

  it('a reaction that arrives before its message is reported once the message is stored, with the message’s seq', async () => {
    const later = `3EB0${Date.now().toString(16).toUpperCase()}LATE`;
    const key: proto.IMessageKey = { remoteJid: `${PHONE}@s.whatsapp.net`, id: later, fromMe: false };
    await sim.deliverMessage({ to: PHONE, from: CONTACT, message: { reactionMessage: { key, text: '🙌', senderTimestampMs: Date.now() } } });
    // Nothing to report yet: the reaction waits for its message.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(events().filter((b) => b.event === 'message.reaction' && b.chat_message_id === later)).toHaveLength(0);
    await sim.deliverText({ to: PHONE, from: CONTACT, id: later, text: 'the message the reaction was for' });
    const stored = await messageWhen(t, ws, later);
    const body = await eventWhen('the waiting reaction', (b) => b.event === 'message.reaction' && b.chat_message_id === later);
    expect(body).toMatchObject({ emoji: '🙌', message_id: stored.id, seq: stored.seq, removed: false });
  });

  it('a message typed on the phone gives message.sent with source phone, once, however often it is redelivered', async () => {
    // Typed on the linked phone: it reaches the companion (the real driver) as a deviceSentMessage, then once again.
    const id = await sim.deliverFromPhone({ phone: PHONE, chat: CONTACT, text: 'typed on the phone' });
    await sim.waitForAck(id, PHONE);
    await sim.redeliver(id);
    const body = await eventWhen('phone send', (b) => b.event === 'message.sent' && b.source === 'phone');
    expect(body).toMatchObject({ chat_message_id: id, direction: 'outbound', content: 'typed on the phone', conversation_id: conversationId });
    expect(await messageWhen(t, ws, id)).toMatchObject({ direction: 'outbound', content: 'typed on the phone', conversation_id: conversationId });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(events().filter((b) => b.event === 'message.sent' && b.source === 'phone')).toHaveLength(1);
    // Our API send's echo made none: one message.sent for it, with source api.
    expect(events().filter((b) => b.event === 'message.sent' && b.message_id === sentId)).toHaveLength(1);
  });

  it('a revoke through the API gives message.deleted; a scan.chat-only webhook received none of these', async () => {
    const deleted = await remove(`/api/conversations/${conversationId}/messages/${sentId}`);
    expect(deleted.status).toBe(200);
    expect(await eventWhen('message.deleted', (b) => b.event === 'message.deleted')).toMatchObject({ message_id: sentId, deleted_by: '', deleted: true });
    const chatOnly = receiver.at('/chat-only').map((request) => String(request.headers['x-svc-event']));
    expect(chatOnly.length).toBeGreaterThan(0);
    expect(chatOnly.every((event) => event === 'scan.chat')).toBe(true);
  });
});

describe('message.status of the Cloud API (Graph API fake)', () => {
  let m: MetaTestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    [m, receiver] = await Promise.all([createMetaTestApp({ env: META_WEBHOOK_ENV }), Receiver.start()]);
  });
  afterAll(async () => {
    await m?.close();
    await receiver?.close();
  });

  it('a delivered status callback, then a failed one of another message with the provider’s reason', async () => {
    const w = await connectedWorkspace(m);
    const secret = await addMetaWebhook(m, w, receiver.url('/meta'), ['message.status']);
    const phone = newPhone();
    const first = await startConversation(m, w, phone, 'one');
    const second = await startConversation(m, w, phone, 'two');
    const statuses = (...values: ReturnType<typeof status>[]) =>
      callback({ wabaId: w.wabaId, changes: [messagesChange(w.phoneNumberId, { statuses: values })] });
    await deliverAndSettle(m, statuses(status(first.wamid, 'delivered', phone)));
    await deliverAndSettle(m, statuses(status(second.wamid, 'failed', phone, [asyncError(131026, 'Message undeliverable')])));
    const bodies = await eventually(
      'two message.status deliveries',
      async () => {
        const got = receiver
          .at('/meta')
          .map((request) => new Webhook(secret).verify(request.body.toString('utf8'), request.headers as Record<string, string>) as Body);
        // Each send's own move to `sent` first, then the two callbacks' moves.
        return got.filter((b) => b.status !== 'sent').length >= 2 ? got : null;
      },
      20_000,
    );
    for (const send of [first, second]) {
      expect(bodies.find((b) => b.chat_message_id === send.wamid && b.status === 'sent')).toMatchObject({ previous_status: 'pending', channel: 'meta' });
    }
    expect(bodies.find((b) => b.chat_message_id === first.wamid && b.status !== 'sent')).toMatchObject({
      event: 'message.status',
      channel: 'meta',
      status: 'delivered',
      previous_status: 'sent',
      error: '',
      conversation_id: first.conversationId,
    });
    expect(bodies.find((b) => b.chat_message_id === second.wamid && b.status !== 'sent')).toMatchObject({
      event: 'message.status',
      channel: 'meta',
      status: 'failed',
      previous_status: 'sent',
      error: expect.stringContaining('131026'),
    });
  });
});
