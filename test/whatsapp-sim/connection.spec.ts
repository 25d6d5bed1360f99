import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { BaileysClient, textOf } from './baileys-client.js';
import { linkClient } from './link.js';
import { WhatsAppSimulator } from './whatsapp-simulator.js';

const PHONE = '15550003333';
const codes = (client: BaileysClient): (number | undefined)[] => client.closes.map((c) => c.statusCode);

describe('simulator: close codes, QR expiry, restarts and the offline queue', () => {
  let sim: WhatsAppSimulator;
  const clients: BaileysClient[] = [];

  beforeEach(async () => {
    sim = await WhatsAppSimulator.start({ qrRefs: 2 });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.stop();
    await sim.stop();
  });

  const linked = async (): Promise<BaileysClient> => {
    const { client } = await linkClient(sim, PHONE);
    clients.push(client);
    return client;
  };

  it('515 from the server: the client reconnects and logs in again without a QR', async () => {
    const client = await linked();
    const reopened = client.next('open');
    sim.streamError(PHONE, 515);
    await reopened;
    expect(codes(client)).toEqual([515, 515]);
    expect(client.qrs.length).toBe(1);
  });

  it('440 (replaced) closes with 440, and so does a second socket logging in with the same creds', async () => {
    const client = await linked();
    const closed = client.next('close');
    sim.streamError(PHONE, 440);
    expect((await closed)[0].statusCode).toBe(440);

    const first = new BaileysClient(sim.url, { auth: client.auth });
    clients.push(first);
    const firstOpen = first.next('open');
    first.start();
    await firstOpen;
    const second = new BaileysClient(sim.url, { auth: client.auth });
    clients.push(second);
    const replaced = first.next('close');
    second.start();
    expect((await replaced)[0].statusCode).toBe(440);
    await second.next('open');
  });

  it('401 from the phone (stream error) closes with 401, and the next login is refused with 401', async () => {
    const client = await linked();
    const closed = client.next('close');
    sim.unlink(PHONE);
    expect((await closed)[0].statusCode).toBe(401);
    const again = client.next('close');
    client.start();
    expect((await again)[0].statusCode).toBe(401);
    expect(client.qrs.length).toBe(1);
  });

  it('<failure reason=401> closes with 401', async () => {
    const client = await linked();
    const closed = client.next('close');
    sim.failure(PHONE, 401);
    expect((await closed)[0].statusCode).toBe(401);
  });

  it('a dropped connection closes with 428 (connection closed), and the client can log in again', async () => {
    const client = await linked();
    const closed = client.next('close');
    sim.dropConnection(PHONE);
    expect((await closed)[0].statusCode).toBe(428);
    const reopened = client.next('open');
    client.start();
    await reopened;
  });

  it('a silent connection: the client gives up after its keepalive interval with 408 (connection lost)', async () => {
    const client = await linked();
    client.stop();
    const quiet = new BaileysClient(sim.url, { auth: client.auth, keepAliveIntervalMs: 1_000 });
    clients.push(quiet);
    const opened = quiet.next('open');
    quiet.start();
    await opened;
    await sim.waitForLive(PHONE);
    const closed = quiet.next('close');
    sim.silence(PHONE);
    expect((await closed)[0].statusCode).toBe(408);
  });

  it('QR refs exhausted: 408 after the last ref; a new socket gets new refs', async () => {
    const client = new BaileysClient(sim.url, { qrTimeout: 300 });
    clients.push(client);
    const closed = client.next('close');
    client.start();
    expect((await closed)[0].statusCode).toBe(408);
    expect(client.qrs.length).toBe(2);
    const qr = client.next('qr');
    client.start();
    const [code] = await qr;
    expect(client.qrs.slice(0, 2)).not.toContain(code);
  });

  it('expireQr ends the QR at once with 408', async () => {
    const client = new BaileysClient(sim.url);
    clients.push(client);
    const qr = client.next('qr');
    client.start();
    await qr;
    const closed = client.next('close');
    sim.expireQr();
    expect((await closed)[0].statusCode).toBe(408);
  });

  it('queues messages while the device is offline and delivers them once at the next login', async () => {
    const client = await linked();
    client.stop();
    await sim.waitForOffline(PHONE);
    const id = await sim.deliverText({ to: PHONE, from: '4915100000010', text: 'while you were away' });
    expect(sim.isOnline(PHONE)).toBe(false);

    const restarted = new BaileysClient(sim.url, { auth: client.auth });
    clients.push(restarted);
    restarted.start();
    const message = await restarted.message((m) => m.key.id === id);
    expect(textOf(message)).toBe('while you were away');
    await sim.waitForAck(id);
    expect(restarted.upserts.filter((u) => u.message.key.id === id).map((u) => u.type)).toEqual(['append']);
    expect(restarted.qrs).toEqual([]);
    expect(sim.devicesOf(PHONE)[0].pending).toEqual([]);
  });
});
