import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { BaileysClient } from './baileys-client.js';
import { WhatsAppSimulator } from './whatsapp-simulator.js';

describe('simulator: pairing and login with the real Baileys client', () => {
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

  it('shows a QR, pairs when the phone scans it, restarts on 515 and opens as the phone number', async () => {
    const qr = client.next('qr');
    client.start();
    const [code] = await qr;
    expect(code).toMatch(/^https:\/\/wa\.me\/settings\/linked_devices#/);
    const opened = client.next('open');
    const device = await sim.scanQr(code, '15550001111');
    await opened;
    expect(client.closes.map((c) => c.statusCode)).toEqual([515]);
    expect(client.sock?.user?.id).toBe(`15550001111:${device.id}@s.whatsapp.net`);
    expect(client.auth.creds.me?.lid).toBe(device.lidJid);
    await sim.waitForLive('15550001111');
    expect(device.uploadedPreKeys).toBeGreaterThan(0);
  });

  it('refuses to pair when the QR string is not the one the client shows', async () => {
    const qr = client.next('qr');
    client.start();
    const [code] = await qr;
    const [head, noise, identity, , platform] = code.split(',');
    const wrongSecret = Buffer.alloc(32, 7).toString('base64');
    // Same ref, wrong advSecret: Baileys rejects the HMAC and never signs.
    await expect(sim.phone('15550001112').scan([head, noise, identity, wrongSecret, platform].join(','))).rejects.toThrow(
      'the client closed the connection before answering',
    );
    expect(sim.devicesOf('15550001112')).toEqual([]);
    await expect(sim.scanQr('https://wa.me/settings/linked_devices#nope,a,b,c', '15550001112')).rejects.toThrow('no connected client shows the QR ref nope');
  });
});
