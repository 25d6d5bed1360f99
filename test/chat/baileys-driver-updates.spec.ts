import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { BaileysScanDriver } from '../../src/modules/chat/driver/baileys/baileys-scan.driver.js';
import type { ScanEvent, ScanMessage, ScanSocket } from '../../src/modules/chat/driver/scan-driver.port.js';
import { MemoryScanAuth } from '../support/memory-scan-auth.js';
import { edit, reaction, revoke } from '../whatsapp-sim/content-messages.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { eventually } from './chat-support.js';

/**
 * Reactions and revokes through a real Baileys socket (rc14) from the simulator: Baileys raises
 * each twice (the upsert that carries it, and its own `messages.reaction` / REVOKE
 * `messages.update`); the driver hands each over once, as an update after the messages of its
 * batch, with the person who reacted or deleted as its sender.
 */
jest.setTimeout(60_000);

const PHONE = '15550100363';

type Of<T extends ScanEvent['type']> = Extract<ScanEvent, { type: T }>;

describe('Baileys scan driver: reactions and revokes from the simulator', () => {
  let sim: WhatsAppSimulator;
  let driver: BaileysScanDriver;
  const auth = new MemoryScanAuth();
  let socket: ScanSocket;
  let events: ScanEvent[] = [];

  const open = async (): Promise<void> => {
    events = [];
    const mine = events;
    socket = await driver.open({
      workspaceId: '00000000-0000-4000-8000-000000000363',
      auth,
      getMessage: async () => undefined,
      // Recorded is stored: WhatsApp is acknowledged at once (as the inbox does after its commit).
      listener: (e, stored) => {
        mine.push(e);
        stored?.();
      },
    });
  };
  const of = <T extends ScanEvent['type']>(type: T): Of<T>[] => events.filter((e): e is Of<T> => e.type === type);
  const messageIds = (): string[] => of('messages').flatMap((e) => e.messages.map((m) => m.externalId));
  const messageOf = (id: string): ScanMessage =>
    of('messages')
      .flatMap((e) => e.messages)
      .find((m) => m.externalId === id)!;
  /** The other jid form of a message's 1:1 chat, as the driver handed the message over: its updates have the same. */
  const chatAltOf = (id: string): string | null => messageOf(id).chatJidAlt;
  /** A text after the updates: once it is handed over, everything delivered before it was. */
  const fence = async (from: string): Promise<void> => {
    const id = await sim.deliverText({ to: PHONE, from, text: 'fence' });
    await eventually(`the fence ${id}`, () => messageIds().includes(id));
  };

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    driver = new BaileysScanDriver(loadConfig({ LOG_LEVEL: 'silent', WA_WEBSOCKET_URL: sim.url }));
    await open();
    const qr = await eventually('a QR', () => of('qr')[0], 60_000);
    await sim.scanQr(qr.code, PHONE);
    await eventually('the restart after pairing', () => of('closed')[0], 60_000);
    await open();
    await eventually('logged in', () => of('open')[0], 60_000);
    await sim.waitForLive(PHONE);
  }, 120_000);
  afterAll(async () => {
    socket?.close();
    await sim?.stop();
  });

  it('a reaction, its removal and a revoke in a 1:1 chat: each handed over once, the peer as sender', async () => {
    const from = '4915203630001';
    const chatJid = `${from}@s.whatsapp.net`;
    const first = await sim.deliverText({ to: PHONE, from, name: 'Rea', text: 'react to me' });
    await eventually('the message', () => messageIds().includes(first));
    const chat = { chatJid, chatJidAlt: chatAltOf(first) };
    events.length = 0;
    await sim.deliverMessage({ to: PHONE, from, message: reaction({ id: first, fromMe: true }, '👍') });
    await sim.deliverMessage({ to: PHONE, from, message: reaction({ id: first, fromMe: true }, '') });
    await sim.deliverMessage({ to: PHONE, from, message: revoke({ id: first }) });
    await fence(from);

    expect(of('reactions').flatMap((e) => e.reactions)).toEqual([
      { ...chat, externalId: first, senderJid: chatJid, fromMe: false, emoji: '👍' },
      { ...chat, externalId: first, senderJid: chatJid, fromMe: false, emoji: '' },
    ]);
    expect(of('revokes').flatMap((e) => e.revokes)).toEqual([{ ...chat, externalId: first, senderJid: chatJid, fromMe: false }]);
    // None of them is a message; the edit path is untouched.
    expect(messageIds()).toHaveLength(1);
    expect(of('edits')).toEqual([]);
  });

  it('in a group, the member who reacted or deleted is the sender', async () => {
    const member = '4915203630002';
    const group = '120363036300000001@g.us';
    sim.group({ jid: group, to: PHONE, subject: 'Reactions', members: [member] });
    const first = await sim.deliverText({ to: PHONE, from: member, group, text: 'group message' });
    await eventually('the group message', () => messageIds().includes(first));
    // The member as the driver names the writer of a group message.
    const { senderJid } = of('messages')
      .flatMap((e) => e.messages)
      .find((m) => m.externalId === first)!;
    expect(senderJid.split('@')[0]).toMatch(new RegExp(`^(${member}|${sim.world.contact(member).lid})$`));
    events.length = 0;
    await sim.deliverMessage({ to: PHONE, from: member, group, message: reaction({ id: first, fromMe: true, chat: group }, '🎉') });
    await sim.deliverMessage({ to: PHONE, from: member, group, message: revoke({ id: first, chat: group }) });
    await fence(member);

    expect(of('reactions').flatMap((e) => e.reactions)).toEqual([
      { chatJid: group, chatJidAlt: null, externalId: first, senderJid, fromMe: false, emoji: '🎉' },
    ]);
    expect(of('revokes').flatMap((e) => e.revokes)).toEqual([{ chatJid: group, chatJidAlt: null, externalId: first, senderJid, fromMe: false }]);
  });

  it('a message and its updates queued while offline: the message first, then each update once', async () => {
    const from = '4915203630003';
    const chatJid = `${from}@s.whatsapp.net`;
    socket.close();
    await sim.waitForOffline(PHONE);
    const target = await sim.deliverText({ to: PHONE, from, text: 'sent while you were away' });
    await sim.deliverMessage({ to: PHONE, from, message: reaction({ id: target, fromMe: true }, '❤️') });
    await sim.deliverMessage({ to: PHONE, from, message: edit({ id: target }, 'sent while you were offline') });
    await open();
    await sim.waitForLive(PHONE);
    // Baileys works through its offline queue beside live messages: a live fence may overtake it.
    await eventually('the offline updates', () => of('reactions').length > 0 && of('edits').length > 0);
    await fence(from);

    const order = events.map((e) => e.type).filter((type) => type === 'messages' || type === 'reactions' || type === 'edits');
    expect(order.indexOf('messages')).toBeLessThan(order.indexOf('reactions'));
    expect(messageIds()).toContain(target);
    const chat = { chatJid, chatJidAlt: chatAltOf(target) };
    expect(of('reactions').flatMap((e) => e.reactions)).toEqual([{ ...chat, externalId: target, senderJid: chatJid, fromMe: false, emoji: '❤️' }]);
    // The edit with its sender, as the message has it.
    const { senderJid, senderJidAlt } = messageOf(target);
    expect(of('edits').flatMap((e) => e.edits)).toEqual([
      { ...chat, externalId: target, content: 'sent while you were offline', senderJid, senderJidAlt, fromMe: false },
    ]);
  });
});
