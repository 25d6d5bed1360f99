import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { proto } from '@whiskeysockets/baileys';
import type { TestApp } from '../support/test-app.js';
import { messageId } from '../support/inbox-factories.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { allMessages, api, createE2eApp, eventually, link, messageWhen, newWorkspace, sleep, type E2eWorkspace, type Json } from './e2e-support.js';

/**
 * Reactions, revokes and edits end to end: a contact's phone sends them (the simulator encrypts
 * them as WhatsApp does), the real Baileys driver maps them, the inbox changes the message they
 * name, before or after it arrives, and stores no message for them.
 */
jest.setTimeout(60_000);

const PHONE = '15550100036';
const OWN = `${PHONE}@s.whatsapp.net`;

describe('scan channel end to end: reactions, revokes, edits', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let ws: E2eWorkspace;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    t = await createE2eApp(sim);
    ws = await newWorkspace(t);
    await link(t, sim, ws, PHONE);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.stop();
  });

  // As the contact's phone writes them: the key names the message from the contact's side (its
  // own message is `fromMe`, ours is not; the chat is our number).
  const key = (id: string, theirs: boolean): proto.IMessageKey => ({ remoteJid: OWN, id, fromMe: theirs });
  const react = (from: string, id: string, emoji: string, theirs = true) =>
    sim.deliverMessage({ to: PHONE, from, message: { reactionMessage: { key: key(id, theirs), text: emoji, senderTimestampMs: Date.now() } } });
  const revoke = (from: string, id: string) =>
    sim.deliverMessage({ to: PHONE, from, message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: key(id, true) } } });
  const edit = (from: string, id: string, text: string) =>
    sim.deliverMessage({
      to: PHONE,
      from,
      message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT, key: key(id, true), editedMessage: { conversation: text } } },
    });
  const count = async (): Promise<number> => (await allMessages(t, ws)).length;

  it('a contact’s reactions to its own message and to ours show under them; a new emoji replaces, an empty one removes', async () => {
    const from = '4915100360001';
    const theirs = await sim.deliverText({ to: PHONE, from, name: 'Rea', text: 'lunch?' });
    const conversationId = String((await messageWhen(t, ws, theirs)).conversation_id);
    await sim.waitForLive(PHONE);
    const sent = await api(t, ws, 'post', `/api/conversations/${conversationId}/messages`, { body: 'sure, 12:30' });
    expect(sent.status).toBe(201);
    const oursId = await externalIdOf(t, ws, String(sent.body.id));
    const before = await count();

    await react(from, theirs, '👍');
    await react(from, oursId, '❤️', false);
    const contact = `${from}@s.whatsapp.net`;
    await messageWhen(t, ws, theirs, (m) => JSON.stringify(m.reactions) === JSON.stringify([{ emoji: '👍', sender_jid: contact }]));
    await messageWhen(t, ws, oursId, (m) => JSON.stringify(m.reactions) === JSON.stringify([{ emoji: '❤️', sender_jid: contact }]));

    await react(from, theirs, '🎉');
    await messageWhen(t, ws, theirs, (m) => (m.reactions as Json[])[0]?.emoji === '🎉');
    await react(from, theirs, '');
    await messageWhen(t, ws, theirs, (m) => (m.reactions as Json[]).length === 0);
    expect(await count()).toBe(before);
  });

  it('a reaction, revoke and edit that arrive before their message are applied once it arrives', async () => {
    const from = '4915100360002';
    const [early, earlyEdit] = [messageId(), messageId()];
    await react(from, early, '😮');
    await revoke(from, early);
    await edit(from, earlyEdit, 'the right text');
    await sleep(300);
    expect((await allMessages(t, ws)).some((m) => m.chat_message_id === early || m.chat_message_id === earlyEdit)).toBe(false);

    await sim.deliverText({ to: PHONE, from, name: 'Ola', text: 'oops', id: early });
    await sim.deliverText({ to: PHONE, from, text: 'teh wrong text', id: earlyEdit });
    expect(await messageWhen(t, ws, early, (m) => m.deleted === true && (m.reactions as Json[]).length === 1)).toMatchObject({
      content: 'oops',
      deleted: true,
      reactions: [{ emoji: '😮', sender_jid: `${from}@s.whatsapp.net` }],
    });
    expect(await messageWhen(t, ws, earlyEdit, (m) => m.edited === true)).toMatchObject({ content: 'the right text', edited: true, deleted: false });
  });

  it('a revoke and an edit after their message mark it deleted (content kept) and edited', async () => {
    const from = '4915100360003';
    const first = await sim.deliverText({ to: PHONE, from, name: 'Eda', text: 'meet at 5' });
    const second = await sim.deliverText({ to: PHONE, from, text: 'not for you' });
    await messageWhen(t, ws, second);
    await edit(from, first, 'meet at 6');
    await revoke(from, second);
    expect(await messageWhen(t, ws, first, (m) => m.edited === true)).toMatchObject({ content: 'meet at 6', deleted: false });
    expect(await messageWhen(t, ws, second, (m) => m.deleted === true)).toMatchObject({ content: 'not for you', edited: false });
  });
});

/** The channel id our send got, once the channel accepted it. */
async function externalIdOf(t: TestApp, ws: E2eWorkspace, id: string): Promise<string> {
  const found = await eventually(`the channel id of ${id}`, async () => (await allMessages(t, ws)).find((m) => m.id === id && m.chat_message_id));
  return String(found.chat_message_id);
}
