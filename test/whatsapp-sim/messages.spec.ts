import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BaileysClient } from './baileys-client.js';
import { textOf } from './baileys-client.js';
import { linkClient } from './link.js';
import { WhatsAppSimulator } from './whatsapp-simulator.js';

const PHONE = '15550002222';

describe('simulator: Signal-encrypted messages with a linked Baileys client', () => {
  let sim: WhatsAppSimulator;
  let client: BaileysClient;

  // One linked client for the file (linking costs seconds of pure-JS curve math); every test
  // writes as its own contact, so they stay independent.
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    ({ client } = await linkClient(sim, PHONE));
  });
  afterAll(async () => {
    client.stop();
    await sim.stop();
  });

  it('delivers a phone-addressed text that Baileys decrypts, with the sender name', async () => {
    const id = await sim.deliverText({ to: PHONE, from: '4915112345678', name: 'Alice', text: 'hello there' });
    const message = await client.message((m) => m.key.id === id);
    expect(textOf(message)).toBe('hello there');
    expect(message.key.remoteJid).toBe('4915112345678@s.whatsapp.net');
    expect(message.key.fromMe).toBe(false);
    expect(message.pushName).toBe('Alice');
    await sim.waitForAck(id, PHONE);
  });

  it('delivers a text typed on the phone itself: fromMe, in the chat it was written in', async () => {
    const id = await sim.deliverFromPhone({ phone: PHONE, chat: '4915100000009', text: 'typed on the phone' });
    const message = await client.message((m) => m.key.id === id);
    expect(textOf(message)).toBe('typed on the phone');
    expect(message.key.remoteJid).toBe('4915100000009@s.whatsapp.net');
    expect(message.key.fromMe).toBe(true);
    await sim.waitForAck(id, PHONE);
  });

  it('delivers a LID-addressed text with the phone number as the alternate jid', async () => {
    const id = await sim.deliverText({ to: PHONE, from: '4915100000001', name: 'Bob', text: 'via lid', lid: true });
    const message = await client.message((m) => m.key.id === id);
    const contact = sim.world.contact('4915100000001');
    expect(textOf(message)).toBe('via lid');
    expect(message.key.remoteJid).toBe(contact.lidJid);
    expect(message.key.remoteJidAlt).toBe(contact.pnJid);
  });

  it('keeps several messages of one contact decryptable in order', async () => {
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three']) ids.push(await sim.deliverText({ to: PHONE, from: '4915100000002', text }));
    const texts = await Promise.all(ids.map(async (id) => textOf(await client.message((m) => m.key.id === id))));
    expect(texts).toEqual(['one', 'two', 'three']);
  });

  it('redelivers a message with the same id', async () => {
    const id = await sim.deliverText({ to: PHONE, from: '4915100000003', text: 'once' });
    await client.message((m) => m.key.id === id);
    const again = client.next('upsert', (m) => m.key.id === id);
    await sim.redeliver(id);
    await again;
    const copies = client.upserts.filter((u) => u.message.key.id === id);
    expect(copies.length).toBe(2);
    expect(copies.map((c) => textOf(c.message))).toEqual(['once', 'once']);
  });

  it('delivers a group message with the group as chat and the contact as participant', async () => {
    const id = await sim.deliverText({ to: PHONE, from: '4915100000004', group: '120363000000000001@g.us', text: 'in the group' });
    const message = await client.message((m) => m.key.id === id);
    expect(textOf(message)).toBe('in the group');
    expect(message.key.remoteJid).toBe('120363000000000001@g.us');
    expect(message.key.participant).toBe('4915100000004@s.whatsapp.net');
  });

  it('decrypts what the device sends to a group: the sender key from its pairwise copies, then each group message', async () => {
    const group = '120363000000000002@g.us';
    sim.group({ jid: group, to: PHONE, subject: 'Team', members: ['4915100000007', '4915100000008'] });
    const first = await client.sock!.sendMessage(group, { text: 'hello team' });
    const received = await sim.waitForSent((m) => m.id === first?.key.id);
    expect(received).toMatchObject({ group, to: group, from: PHONE, text: 'hello team' });
    expect(received.error).toBeUndefined();
    expect(received.contact).toBeUndefined();
    // Every member got the sender key in a pairwise copy.
    expect(sim.senderKeys.has(group, sim.devicesOf(PHONE)[0]!.jid)).toBe(true);

    // The next message carries no sender key (Baileys remembers who has it): the kept key decrypts it.
    const second = await client.sock!.sendMessage(group, { text: 'and again' });
    expect((await sim.waitForSent((m) => m.id === second?.key.id)).text).toBe('and again');
  });

  it('decrypts what the device sends to a contact it has never talked to', async () => {
    const sent = await client.sock!.sendMessage('4915100000005@s.whatsapp.net', { text: 'first contact' });
    const received = await sim.waitForSent((m) => m.id === sent?.key.id);
    expect(received.text).toBe('first contact');
    expect(received.contact).toBe('4915100000005');
    expect(received.from).toBe(PHONE);
  });

  it('a contact that starts its session over, then reinstalls with a new identity, is still decrypted, and so is a reply', async () => {
    const from = '4915100000009';
    const texts: string[] = [];
    for (const [text, rekey] of [
      ['first', undefined],
      ['new session', { newIdentity: false }],
      ['reinstalled', { newIdentity: true }],
    ] as const) {
      if (rekey) sim.rekeyContact(from, rekey);
      const id = await sim.deliverText({ to: PHONE, from, text });
      texts.push(textOf(await client.message((m) => m.key.id === id)) ?? '');
    }
    expect(texts).toEqual(['first', 'new session', 'reinstalled']);
    const sent = await client.sock!.sendMessage(`${from}@s.whatsapp.net`, { text: 'welcome back' });
    expect(await sim.waitForSent((m) => m.id === sent?.key.id)).toMatchObject({ text: 'welcome back', contact: from });
  });

  it('decrypts a reply on the session the contact started, and moves it to delivered and read', async () => {
    const id = await sim.deliverText({ to: PHONE, from: '4915100000006', text: 'ping' });
    await client.message((m) => m.key.id === id);
    const sent = await client.sock!.sendMessage('4915100000006@s.whatsapp.net', { text: 'pong' });
    const received = await sim.waitForSent((m) => m.id === sent?.key.id);
    expect(received.text).toBe('pong');

    sim.sendReceipt(received.id, 'delivered');
    await client.status(received.id, 3);
    expect(client.statuses.get(received.id)).toBe(3);
    sim.sendReceipt(received.id, 'read');
    await client.status(received.id, 4);
  });
});
