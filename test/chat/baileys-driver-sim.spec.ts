import { AsyncLocalStorage, executionAsyncResource } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { BufferJSON } from '@whiskeysockets/baileys';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { AddressRefusedError } from '../../src/infra/net/guarded-lookup.js';
import { BaileysScanDriver } from '../../src/modules/chat/driver/baileys/baileys-scan.driver.js';
import type { ScanEvent, ScanSocket } from '../../src/modules/chat/driver/scan-driver.port.js';
import { MemoryScanAuth } from '../support/memory-scan-auth.js';
import { encryptMedia } from '../whatsapp-sim/media-crypto.js';
import { SIM_CA_FILE, WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { eventually } from './chat-support.js';

/**
 * The real Baileys driver against the loopback simulator, without the rest of the app: what only
 * a real Baileys socket shows (its key-transaction storage, TLS to a media host).
 */
jest.setTimeout(60_000);

const PHONE = '15550100009';

/** Async-context storages Node propagates into every new async resource (before Node 24). */
async function propagatedStorages(): Promise<number> {
  await Promise.resolve();
  return Object.getOwnPropertySymbols(executionAsyncResource()).filter((symbol) => symbol.description === 'kResourceStore').length;
}

// Node 24 (AsyncContextFrame) no longer stamps storages on async resources: nothing to leak there.
const legacyPropagation = await (async () => {
  const before = await propagatedStorages();
  const probe = new AsyncLocalStorage();
  const seen = await probe.run({}, propagatedStorages);
  probe.disable();
  return seen === before + 1;
})();

describe('Baileys scan driver against the simulator', () => {
  let sim: WhatsAppSimulator;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  (legacyPropagation ? it : it.skip)('leaves no async-context storage behind: sockets that linked, logged in and closed cost nothing afterwards', async () => {
    const baseline = await propagatedStorages();
    const driver = new BaileysScanDriver(loadConfig({ LOG_LEVEL: 'silent', WA_WEBSOCKET_URL: sim.url }));
    const auth = new MemoryScanAuth();
    const open = async (): Promise<{ socket: ScanSocket; events: ScanEvent[] }> => {
      const events: ScanEvent[] = [];
      const socket = await driver.open({
        workspaceId: '00000000-0000-4000-8000-000000000009',
        auth,
        getMessage: async () => undefined,
        listener: (e, stored) => {
          events.push(e);
          stored?.();
        },
      });
      return { socket, events };
    };
    const closed = (events: ScanEvent[]): Promise<unknown> => eventually('closed', () => events.some((e) => e.type === 'closed'));

    // Link: a QR, the scan, the 515 restart.
    const first = await open();
    const qr = await eventually('a QR', () => first.events.find((e): e is Extract<ScanEvent, { type: 'qr' }> => e.type === 'qr'));
    await sim.scanQr(qr.code, PHONE);
    await closed(first.events);
    // Three logins in a row, as reconnects would do: each socket runs key transactions (pre-keys,
    // sessions, app state) while it is up, and leaves nothing once closed.
    for (let i = 0; i < 3; i += 1) {
      const next = await open();
      await eventually('logged in', () => next.events.some((e) => e.type === 'open'));
      await sim.waitForLive(PHONE);
      next.socket.close();
      await closed(next.events);
    }
    // Without the release every socket ever opened stays enabled: baseline + 4 here.
    await eventually('the storages released', async () => (await propagatedStorages()) === baseline);
  });

  it("reports the phone removing the device (WhatsApp's stream error device_removed) as a 401 of a removed device, and a QR code with its expiry", async () => {
    const phone = '15550100019';
    const driver = new BaileysScanDriver(loadConfig({ LOG_LEVEL: 'silent', WA_WEBSOCKET_URL: sim.url }));
    const auth = new MemoryScanAuth();
    const open = async (): Promise<ScanEvent[]> => {
      const events: ScanEvent[] = [];
      await driver.open({
        workspaceId: '00000000-0000-4000-8000-000000000019',
        auth,
        getMessage: async () => undefined,
        listener: (e, stored) => (events.push(e), stored?.()),
      });
      return events;
    };
    const before = Date.now();
    const first = await open();
    const qr = await eventually('a QR', () => first.find((e): e is Extract<ScanEvent, { type: 'qr' }> => e.type === 'qr'));
    // The first code of a socket lives 60 s (Baileys' default), counted from when it was shown.
    expect(qr.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 60_000);
    expect(qr.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
    await sim.scanQr(qr.code, phone);
    await eventually('the restart after pairing', () => first.some((e) => e.type === 'closed'));
    const linked = await open();
    await eventually('logged in', () => linked.some((e) => e.type === 'open'));
    await sim.waitForLive(phone);

    sim.unlink(phone);
    const closed = await eventually('closed', () => linked.find((e): e is Extract<ScanEvent, { type: 'closed' }> => e.type === 'closed'));
    expect(closed).toEqual({ type: 'closed', code: 401, reason: 'Stream Errored (conflict)', qrExpired: false, authFailure: false, removed: true });

    // The removed device's next login is refused with a plain 401 failure.
    const refused = await open();
    const again = await eventually('refused', () => refused.find((e): e is Extract<ScanEvent, { type: 'closed' }> => e.type === 'closed'));
    expect(again).toEqual({ type: 'closed', code: 401, reason: 'Connection Failure', qrExpired: false, authFailure: false });
  });

  it("reports the scan (pair-success) as soon as the phone paired, before the channel's restart (515), then the login", async () => {
    const phone = '15550100029';
    const driver = new BaileysScanDriver(loadConfig({ LOG_LEVEL: 'silent', WA_WEBSOCKET_URL: sim.url }));
    const auth = new MemoryScanAuth();
    const sockets: ScanSocket[] = [];
    const open = async (): Promise<ScanEvent[]> => {
      const events: ScanEvent[] = [];
      sockets.push(
        await driver.open({
          workspaceId: '00000000-0000-4000-8000-000000000029',
          auth,
          getMessage: async () => undefined,
          listener: (e, stored) => (events.push(e), stored?.()),
        }),
      );
      return events;
    };
    const first = await open();
    const qr = await eventually('a QR', () => first.find((e): e is Extract<ScanEvent, { type: 'qr' }> => e.type === 'qr'));
    // The simulator holds its 515 until released: what the driver reports before it is the pairing alone.
    let release!: () => void;
    const device = await sim.scanQr(qr.code, phone, { restartAfter: new Promise<void>((resolve) => (release = resolve)) });
    const paired = await eventually('the pairing', () => first.find((e): e is Extract<ScanEvent, { type: 'paired' }> => e.type === 'paired'));
    expect(paired.identity).toEqual({ jid: device.jid, lid: device.lidJid, name: null });
    expect(first.map((e) => e.type)).toEqual(['qr', 'paired']);

    release();
    const closed = await eventually('the restart', () => first.find((e): e is Extract<ScanEvent, { type: 'closed' }> => e.type === 'closed'));
    expect(closed).toMatchObject({ code: 515, qrExpired: false });
    expect(first.map((e) => e.type)).toEqual(['qr', 'paired', 'closed']);
    const linked = await open();
    const opened = await eventually('logged in', () => linked.find((e): e is Extract<ScanEvent, { type: 'open' }> => e.type === 'open'));
    expect(opened.identity.jid).toBe(device.jid);
    expect(linked.some((e) => e.type === 'qr' || e.type === 'paired')).toBe(false);
    sockets.at(-1)!.close();
    await eventually('closed', () => linked.some((e) => e.type === 'closed'));
  });

  it("downloads media from the simulator's HTTPS host when WA_MEDIA_CA_FILE names its CA, and refuses the host without it", async () => {
    const plain = randomBytes(5000);
    const encrypted = encryptMedia(plain, 'image');
    const { url, directPath } = sim.media.publish(encrypted.enc);
    const ref = JSON.stringify({ kind: 'image', mediaKey: encrypted.mediaKey, directPath, url }, BufferJSON.replacer);

    // The simulator's media host is on 127.0.0.1: allowed here, as in every test that uses it.
    const trusting = new BaileysScanDriver(loadConfig({ LOG_LEVEL: 'silent', WA_MEDIA_CA_FILE: SIM_CA_FILE, ALLOW_PRIVATE_MEDIA_URLS: 'true' }));
    expect((await trusting.downloadMedia(ref)).equals(plain)).toBe(true);

    const plainDriver = new BaileysScanDriver(loadConfig({ LOG_LEVEL: 'silent', ALLOW_PRIVATE_MEDIA_URLS: 'true' }));
    const refused = await plainDriver.downloadMedia(ref).then(
      () => undefined,
      (error: Error) => error,
    );
    expect((refused?.cause as { code?: string } | undefined)?.code).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it("refuses the simulator's loopback media host without ALLOW_PRIVATE_MEDIA_URLS, before any request reaches it", async () => {
    const encrypted = encryptMedia(randomBytes(500), 'image');
    const { url, directPath } = sim.media.publish(encrypted.enc);
    const ref = JSON.stringify({ kind: 'image', mediaKey: encrypted.mediaKey, directPath, url }, BufferJSON.replacer);
    const downloads = sim.media.downloads;

    const guarded = new BaileysScanDriver(loadConfig({ LOG_LEVEL: 'silent', WA_MEDIA_CA_FILE: SIM_CA_FILE }));
    const refused = await guarded.downloadMedia(ref).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(refused).toBeInstanceOf(AddressRefusedError);
    expect(refused?.message).toBe('127.0.0.1 is a loopback address');
    expect(sim.media.downloads).toBe(downloads);
  });
});
