import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type ChannelConversation, ChannelNotConnectedError } from '../../src/modules/channels/channel-gateway.port.js';
import { waMessageId } from '../../src/modules/chat/driver/wa-message-id.js';
import { ScanChannelGateway } from '../../src/modules/chat/inbound/scan-channel.gateway.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { createE2eApp, eventually, link, newWorkspace, type E2eWorkspace } from '../e2e/e2e-support.js';

/**
 * The scan gateway's chat states and message ids through the real Baileys driver: what the
 * contact's phone sees in the simulator (issue 40).
 */
jest.setTimeout(60_000);

const PHONE = '15550100402';
const CONTACT = '4915100004020';

describe('scan channel: typing indicators and message ids', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let ws: E2eWorkspace;
  let gateway: ScanChannelGateway;
  const conversation: ChannelConversation = { id: randomUUID(), channel: 'scan', chatJid: `${CONTACT}@s.whatsapp.net`, chatPhone: CONTACT, isGroup: false };

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    t = await createE2eApp(sim);
    ws = await newWorkspace(t);
    sim.addContact(CONTACT, 'Contact');
    gateway = t.app.get(ScanChannelGateway);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.stop();
  });

  it('is paced, and shows no chat state while the number is not connected', async () => {
    expect(gateway.paced).toBe(true);
    await expect(gateway.typing(ws.workspaceId, conversation, 'composing')).rejects.toBeInstanceOf(ChannelNotConnectedError);
  });

  it('composing, then paused, then recording reach the contact in that order', async () => {
    await link(t, sim, ws, PHONE);
    const start = Date.now();
    await gateway.typing(ws.workspaceId, conversation, 'composing');
    await gateway.typing(ws.workspaceId, conversation, 'paused');
    await gateway.typing(ws.workspaceId, conversation, 'recording');
    const states = await eventually('three chat states', () => {
      const seen = sim.chatStates(PHONE);
      return seen.length >= 3 ? seen : undefined;
    });
    expect(states.map(({ from, to, state }) => ({ from, to, state }))).toEqual([
      { from: PHONE, to: `${CONTACT}@s.whatsapp.net`, state: 'composing' },
      { from: PHONE, to: `${CONTACT}@s.whatsapp.net`, state: 'paused' },
      { from: PHONE, to: `${CONTACT}@s.whatsapp.net`, state: 'recording' },
    ]);
    for (const state of states) expect(state.at).toBeGreaterThanOrEqual(start);
  });

  it("a new message carries a WhatsApp id derived from the inbox's id; sent again (a crash before it was marked sent), the same id, seen as a repeat", async () => {
    const messageId = randomUUID();
    const id = waMessageId(messageId);
    expect(id).toMatch(/^3EB0[0-9A-F]{36}$/);

    const first = await gateway.send(ws.workspaceId, conversation, { type: 'text', body: 'hello once', messageId });
    expect(first.externalId).toBe(id);
    const received = await sim.waitForSent((m) => m.id === id);
    expect(received).toMatchObject({ from: PHONE, contact: CONTACT, text: 'hello once' });
    expect(received.repeat).toBeUndefined();

    const again = await gateway.send(ws.workspaceId, conversation, { type: 'text', body: 'hello once', messageId });
    expect(again.externalId).toBe(id);
    const repeated = await eventually('the resend', () => sim.sent(PHONE).filter((m) => m.id === id)[1]);
    expect(repeated).toMatchObject({ text: 'hello once', repeat: true });

    // Another message gets another id; a reaction keeps an id of Baileys' own.
    const other = await gateway.send(ws.workspaceId, conversation, { type: 'text', body: 'hello twice', messageId: randomUUID() });
    expect(other.externalId).not.toBe(id);
    await gateway.react(
      ws.workspaceId,
      conversation,
      { externalId: id, fromMe: true, senderJid: `${PHONE}@s.whatsapp.net`, kind: 'text', content: 'hello once' },
      '👍',
    );
    const reaction = await sim.waitForSent((m) => m.reaction?.key.id === id);
    expect(reaction.id).not.toBe(id);
    expect(reaction.id).toMatch(/^3EB0[0-9A-F]+$/);
  });
});
