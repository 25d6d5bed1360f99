import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { BaileysClient } from './baileys-client.js';
import { PASSKEY_NOTIFICATION_TYPES, PasskeyRequiredError } from './passkey-gate.js';
import { WhatsAppSimulator, WrongPairingCodeError } from './whatsapp-simulator.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The simulator's pairing code and passkey gate against Baileys alone (no service). The first two
 * tests pin what Baileys 7.0.0-rc14 does with the passkey notifications, which the driver's own
 * handling depends on (src/modules/chat/driver/baileys/baileys-passkey.ts): during QR linking its
 * ack throws (no `creds.me`) and WhatsApp hears nothing back; on the pairing-code path it acks.
 * When an upgrade changes either, these fail: then the driver's ack (sent exactly where Baileys'
 * fails) must change with it, or WhatsApp gets two acks or none.
 */
describe('simulator: pairing codes and the passkey gate, with the bare Baileys client', () => {
  let sim: WhatsAppSimulator;
  let client: BaileysClient;

  beforeEach(async () => {
    sim = await WhatsAppSimulator.start();
    client = new BaileysClient(sim.url);
  });
  afterEach(async () => {
    client.stop();
    await sim.stop();
  });

  it('Baileys rc14 does not acknowledge the passkey notifications during QR linking (the driver must)', async () => {
    const phone = '15550002001';
    sim.gateAccount(phone);
    const qr = client.next('qr');
    client.start();
    const [code] = await qr;
    await expect(sim.scanQr(code, phone)).rejects.toThrow(PasskeyRequiredError);
    // Both notifications reached the client (it is still connected, with nothing linked)…
    await sleep(500);
    expect(client.auth.creds.me).toBeUndefined();
    expect(sim.devicesOf(phone)).toEqual([]);
    // …and no acknowledgement came back.
    expect(sim.notificationAcks().map((ack) => ack.type)).toEqual([]);
  });

  it('Baileys rc14 acknowledges them on the pairing-code path (creds.me is set there), once each', async () => {
    const phone = '15550002002';
    sim.gateAccount(phone);
    const qr = client.next('qr');
    const sock = client.start();
    await qr;
    const code = await sock.requestPairingCode(phone);
    await sim.waitForPairingCode(phone);
    await expect(sim.enterPairingCode(phone, code)).rejects.toThrow(PasskeyRequiredError);
    await waitFor(() => sim.notificationAcks().length >= 2);
    await sleep(300);
    expect(sim.notificationAcks().map((ack) => ack.type)).toEqual(['link_code_companion_reg', ...PASSKEY_NOTIFICATION_TYPES]);
  });

  it('a pairing code entered on the phone links the client as a scan does: pair-success, 515, login', async () => {
    const phone = '15550002003';
    const qr = client.next('qr');
    const sock = client.start();
    await qr;
    const code = await sock.requestPairingCode(phone);
    expect(code).toMatch(/^[1-9A-HJ-NP-TV-Z]{8}$/);
    await sim.waitForPairingCode(phone);
    const opened = client.next('open');
    const device = await sim.enterPairingCode(phone, `${code.slice(0, 4)}-${code.slice(4)}`);
    await opened;
    expect(client.closes.map((c) => c.statusCode)).toEqual([515]);
    expect(client.sock?.user?.id).toBe(`${phone}:${device.id}@s.whatsapp.net`);
    await sim.waitForLive(phone);
  });

  it('refuses a wrong code (the client stays unlinked and the right code still works); with no client waiting there is nothing to enter', async () => {
    const phone = '15550002004';
    const qr = client.next('qr');
    const sock = client.start();
    await qr;
    const code = await sock.requestPairingCode(phone);
    await sim.waitForPairingCode(phone);
    const wrong = code.startsWith('A') ? `B${code.slice(1)}` : `A${code.slice(1)}`;
    await expect(sim.enterPairingCode(phone, wrong)).rejects.toThrow(WrongPairingCodeError);
    expect(sim.devicesOf(phone)).toEqual([]);
    const opened = client.next('open');
    await sim.enterPairingCode(phone, code);
    await opened;
    await expect(sim.enterPairingCode('15550002999', code)).rejects.toThrow('no connected client waits for a pairing code for 15550002999');
  });
});

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(25);
  }
}
