import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BaileysClient } from './baileys-client.js';
import { startHttpControl } from './http-control.js';
import { linkClient } from './link.js';
import { WhatsAppSimulator } from './whatsapp-simulator.js';

const PHONE = '15550005555';

describe('simulator: number lookups, typing indicators and when messages arrived', () => {
  let sim: WhatsAppSimulator;
  let client: BaileysClient;
  let control: Awaited<ReturnType<typeof startHttpControl>>;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    ({ client } = await linkClient(sim, PHONE));
    control = await startHttpControl(sim);
  });
  afterAll(async () => {
    client.stop();
    control.server.close();
    await sim.stop();
  });

  const getJson = async <T>(path: string): Promise<T> => (await (await fetch(`${control.url}${path}`)).json()) as T;

  it('finds a number on WhatsApp by phone, and leaves out one that is not', async () => {
    sim.addContact('4915100000050', 'Erin');
    const found = await client.sock!.onWhatsApp('+4915100000050');
    expect(found).toEqual([{ jid: '4915100000050@s.whatsapp.net', exists: true }]);

    expect(await client.sock!.onWhatsApp('4915199999999')).toEqual([]);
    // Looking a number up does not put it on WhatsApp.
    expect(await client.sock!.onWhatsApp('4915199999999')).toEqual([]);
    expect(sim.world.knows('4915199999999')).toBe(false);

    // Several at once, over HTTP-added contacts too: only the known ones come back.
    const added = await fetch(`${control.url}/contacts`, { method: 'POST', body: JSON.stringify({ phone: '4915100000051', name: 'Finn' }) });
    expect(await added.json()).toMatchObject({ phone: '4915100000051', jid: '4915100000051@s.whatsapp.net' });
    const both = await client.sock!.onWhatsApp('4915100000051', '4915188888888', '4915100000050@s.whatsapp.net');
    expect(both?.map((r) => r.jid).sort()).toEqual(['4915100000050@s.whatsapp.net', '4915100000051@s.whatsapp.net']);
  });

  it('logs the typing indicators a device sends, with their times', async () => {
    const to = '4915100000052@s.whatsapp.net';
    const before = Date.now();
    await client.sock!.sendPresenceUpdate('composing', to);
    await sim.waitForChatState((s) => s.to === to && s.state === 'composing');
    await client.sock!.sendPresenceUpdate('recording', to);
    await client.sock!.sendPresenceUpdate('paused', to);
    await sim.waitForChatState((s) => s.to === to && s.state === 'paused');

    const states = sim.chatStates(PHONE).filter((s) => s.to === to);
    expect(states.map((s) => s.state)).toEqual(['composing', 'recording', 'paused']);
    for (const state of states) {
      expect(state.from).toBe(PHONE);
      expect(state.at).toBeGreaterThanOrEqual(before);
      expect(state.at).toBeLessThanOrEqual(Date.now());
    }
    expect(states.map((s) => s.at)).toEqual([...states.map((s) => s.at)].sort((a, b) => a - b));
    expect(sim.chatStates('15550009999')).toEqual([]);
    expect(sim.phone(PHONE).chatStates()).toEqual(sim.chatStates(PHONE));

    const http = await getJson<{ states: unknown[] }>(`/chatstates?phone=${PHONE}`);
    expect(http.states).toEqual(expect.arrayContaining(states.map((s) => ({ ...s }))));
  });

  it('stamps sent messages with their arrival time, and marks a resend of the same id', async () => {
    const to = '4915100000053@s.whatsapp.net';
    const before = Date.now();
    const first = await client.sock!.sendMessage(to, { text: 'first' });
    const sentFirst = await sim.waitForSent((m) => m.id === first?.key.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await client.sock!.sendMessage(to, { text: 'second' });
    const sentSecond = await sim.waitForSent((m) => m.id === second?.key.id);
    expect(sentFirst.at).toBeGreaterThanOrEqual(before);
    expect(sentSecond.at).toBeGreaterThan(sentFirst.at);
    expect(sentFirst.repeat).toBeUndefined();
    expect(sentSecond.repeat).toBeUndefined();

    // The same id once more, as a worker restarted mid-send would do.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await client.sock!.sendMessage(to, { text: 'first' }, { messageId: first!.key.id! });
    const resent = await sim.waitForSent((m) => m.id === first?.key.id && m.repeat === true);
    expect(resent).toMatchObject({ text: 'first', repeat: true });
    expect(resent.at).toBeGreaterThan(sentSecond.at);
    expect(sim.sent(PHONE).filter((m) => m.id === first?.key.id)).toHaveLength(2);

    const http = await getJson<{ messages: { id: string; at: number; repeat?: boolean }[] }>(`/sent?phone=${PHONE}`);
    expect(http.messages.filter((m) => m.id === first?.key.id)).toEqual([
      expect.objectContaining({ at: sentFirst.at }),
      expect.objectContaining({ at: resent.at, repeat: true }),
    ]);
    expect(http.messages.find((m) => m.id === first?.key.id)).not.toHaveProperty('repeat');
  });
});
