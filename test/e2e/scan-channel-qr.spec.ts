import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { makeWASocket } from '@whiskeysockets/baileys';
import { AppConfig } from '../../src/infra/config/app-config.js';
import { LazyBaileysScanDriver } from '../../src/modules/chat/driver/baileys/lazy-baileys-scan.driver.js';
import { SCAN_DRIVER } from '../../src/modules/chat/driver/scan-driver.port.js';
import { QR_EXPIRED, QR_SCANNED } from '../../src/modules/chat/session/scan-state.service.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import {
  chat,
  countConnections,
  createE2eApp,
  eventually,
  newWorkspace,
  pendingQr,
  sleep,
  status,
  statusWhen,
  type E2eWorkspace,
  type Json,
} from './e2e-support.js';

/**
 * Issue 12, item 6: the QR codes run out. The simulator hands out three refs; Baileys shows one
 * QR per ref and closes with 408 "QR refs attempts ended" after the last, exactly as with
 * WhatsApp. Only the time each code is shown is shortened (Baileys' `qrTimeout`, 60 s then 20 s by
 * default), so the real driver runs out in seconds.
 */
jest.setTimeout(60_000);

const PHONE = '15550100006';
const QR_LIFETIME_MS = 1_500;

describe('scan channel end to end: QR codes run out', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let ws: E2eWorkspace;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start({ qrRefs: 3 });
    t = await createE2eApp(sim, {
      customize: (builder) =>
        builder.overrideProvider(SCAN_DRIVER).useFactory({
          factory: (config: AppConfig) => new LazyBaileysScanDriver(config, (socketConfig) => makeWASocket({ ...socketConfig, qrTimeout: QR_LIFETIME_MS })),
          inject: [AppConfig],
        }),
    });
    ws = await newWorkspace(t);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.stop();
  });

  it("shows each of the channel's codes in turn, then the expired text; nothing reconnects; a new connect shows a new code that links", async () => {
    const counts = countConnections(sim, PHONE);
    expect((await chat(t, ws.owner, 'post', '/api/chat/connect')).status).toBe(200);
    const { refs } = await sim.waitForQr();
    const seen = new Set<string>();
    const expired = await eventually(
      'the QR codes used up',
      async () => {
        const body = (await chat(t, { key: ws.key }, 'get', '/api/chat/qr')).body as Json;
        if (typeof body.code === 'string') seen.add(body.code.slice(body.code.indexOf('#') + 1).split(',')[0]!);
        return body.error === QR_EXPIRED ? body : undefined;
      },
      30_000,
    );
    expect(expired).toEqual({ pending: false, image: '', error: QR_EXPIRED, message: QR_EXPIRED });
    // The codes shown were the channel's refs, one after the other (a loaded machine may skip one).
    expect([...seen].every((ref) => refs.includes(ref))).toBe(true);
    expect(seen.size).toBeGreaterThanOrEqual(2);
    expect(await status(t, ws)).toMatchObject({ connected: false, logged_in: false, qr_pending: false });

    // An unattended QR loop would open a new registration within the reconnect delay (tens of ms).
    const registrations = counts.qrs;
    await sleep(1_000);
    expect(counts.qrs).toBe(registrations);
    expect((await chat(t, { key: ws.key }, 'get', '/api/chat/qr')).body).toMatchObject({ error: QR_EXPIRED });

    expect((await chat(t, ws.owner, 'post', '/api/chat/connect')).status).toBe(200);
    const fresh = await pendingQr(t, ws);
    expect(refs).not.toContain(fresh.code.slice(fresh.code.indexOf('#') + 1).split(',')[0]);
    const device = await sim.scanQr(fresh.code, PHONE);
    expect(await statusWhen(t, ws, 'linked', (s) => s.connected === true)).toMatchObject({ logged_in: true, jid: device.jid });
    // The new link's initial history sync runs to its end (and no job is left running at teardown).
    await statusWhen(t, ws, 'the initial sync done', (s) => (s.sync as Json).state === 'done');
  });

  it('a code scanned but not yet restarted when the codes would have run out links anyway: linked, never expired, then connected', async () => {
    const other = await newWorkspace(t);
    const phone = '15550100016';
    expect((await chat(t, other.owner, 'post', '/api/chat/connect')).status).toBe(200);
    const qr = await pendingQr(t, other);
    // The restart (515) never comes: Baileys' QR timer, which outlives the pairing, ends the socket
    // with its 408 "QR refs attempts ended" (3 × 1.5 s) instead. Only a reconnect on the saved creds links now.
    let restart!: () => void;
    const device = await sim.scanQr(qr.code, phone, { restartAfter: new Promise<void>((resolve) => (restart = resolve)) });
    try {
      await statusWhen(t, other, 'the scanned session', (s) => s.logged_in === true);
      const seen: Json[] = [];
      const connected = await eventually(
        'connected without the restart',
        async () => {
          const [state, code] = await Promise.all([status(t, other), chat(t, { key: other.key }, 'get', '/api/chat/qr')]);
          seen.push({ logged_in: state.logged_in, qr_pending: state.qr_pending, qr_error: (code.body as Json).error });
          return state.connected === true ? state : undefined;
        },
        30_000,
      );
      expect(connected).toMatchObject({ logged_in: true, qr_pending: false, jid: device.jid });
      // From the scan on: linked, no code, and the QR endpoint said "scanned" (never "expired").
      expect(seen.every((s) => s.logged_in === true && s.qr_pending === false && s.qr_error !== QR_EXPIRED)).toBe(true);
      expect(seen.some((s) => s.qr_error === QR_SCANNED)).toBe(true);
    } finally {
      restart();
    }
    await statusWhen(t, other, 'the initial sync done', (s) => (s.sync as Json).state === 'done');
  });
});
