import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { PASSKEY_REQUIRED_ERROR } from '../../src/modules/chat/session/session-state.js';
import type { SseClient } from '../support/sse-client.js';
import type { TestApp } from '../support/test-app.js';
import { PASSKEY_NOTIFICATION_TYPES, PasskeyRequiredError } from '../whatsapp-sim/passkey-gate.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import {
  authRows,
  chat,
  countConnections,
  createE2eApp,
  eventually,
  newWorkspace,
  NOTHING_SENT_LIMITS,
  pendingQr,
  sleep,
  status,
  statusWhen,
  type E2eWorkspace,
  type Json,
} from './e2e-support.js';
import { refOf, requestPairingCode, sessionEvents, sessionStream } from './linking-support.js';

/**
 * Issue 37: WhatsApp's passkey gate, through the real driver. A gated account's phone scans the
 * QR code (or enters the pairing code), and WhatsApp sends the companion its passkey notifications
 * instead of pair-success. The session must say so at once, acknowledge both notifications
 * exactly once, show no more codes, retry nothing, and keep no keys.
 */
jest.setTimeout(60_000);

describe('scan channel end to end: the passkey gate', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let ws: E2eWorkspace;
  let stream: SseClient;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    t = await createE2eApp(sim);
    ws = await newWorkspace(t);
    stream = await sessionStream(t, ws);
  });
  afterAll(async () => {
    stream?.close();
    await t?.close();
    await sim?.stop();
  });

  it('a gated scan: passkey_required within seconds with what to do, both notifications acknowledged once, no more codes, no keys', async () => {
    const phone = '15550103701';
    sim.gateAccount(phone);
    const counts = countConnections(sim, phone);
    expect((await chat(t, ws.owner, 'post', '/api/chat/connect')).status).toBe(200);
    const qr = await pendingQr(t, ws);
    expect(await status(t, ws)).toMatchObject({ state: 'qr', qr_pending: true });
    const registrations = counts.qrs;

    const scannedAt = Date.now();
    await expect(sim.scanQr(qr.code, phone)).rejects.toThrow(PasskeyRequiredError);
    const gated = await statusWhen(t, ws, 'passkey_required', (s) => s.state === 'passkey_required', 5_000);
    expect(Date.now() - scannedAt).toBeLessThan(5_000);
    expect(gated).toEqual({
      connected: false,
      logged_in: false,
      qr_pending: false,
      state: 'passkey_required',
      since: expect.any(String),
      error: PASSKEY_REQUIRED_ERROR,
      sync: { state: 'idle', progress: 0 },
      limits: NOTHING_SENT_LIMITS,
      placement: null,
    });
    expect(Date.parse(String(gated.since))).toBeGreaterThanOrEqual(scannedAt - 1_000);
    expect(PASSKEY_REQUIRED_ERROR).toMatch(/passkey/);
    expect(PASSKEY_REQUIRED_ERROR).toMatch(/Cloud API/);

    // The QR endpoint answers 200 without a code, with the same text.
    const code = await chat(t, { key: ws.key }, 'get', '/api/chat/qr');
    expect(code.status).toBe(200);
    expect(code.body).toEqual({ pending: false, image: '', error: PASSKEY_REQUIRED_ERROR, message: PASSKEY_REQUIRED_ERROR });

    // WhatsApp heard back: each notification acknowledged exactly once (Baileys rc14 cannot during QR linking).
    await eventually('both acknowledgements', () => sim.notificationAcks().length >= 2);
    await sleep(1_000);
    expect(sim.notificationAcks().map((ack) => ack.type)).toEqual([...PASSKEY_NOTIFICATION_TYPES]);

    // The socket is gone, no new registration (no new QR) followed, and nothing was kept.
    expect(sim.waitingToLink()).toBe(0);
    expect(sim.devicesOf(phone)).toEqual([]);
    expect(counts.qrs).toBe(registrations);
    expect(await authRows(t, ws.workspaceId)).toBe(0);
    expect(await status(t, ws)).toMatchObject({ state: 'passkey_required', error: PASSKEY_REQUIRED_ERROR });

    // The live stream said so.
    await stream.waitFor('the passkey event', (c) => sessionEvents(c).some((e) => e.state === 'passkey_required'));
    expect(sessionEvents(stream).find((e) => e.state === 'passkey_required')).toMatchObject({
      connected: false,
      logged_in: false,
      qr_pending: false,
      error: PASSKEY_REQUIRED_ERROR,
    });

    // A later connect starts fresh: a new code, no error; once the gate is lifted the scan links.
    sim.gateAccount(phone, false);
    expect((await chat(t, ws.owner, 'post', '/api/chat/connect')).status).toBe(200);
    const fresh = await pendingQr(t, ws);
    expect(refOf(fresh.code)).not.toBe(refOf(qr.code));
    expect(await status(t, ws)).toMatchObject({ state: 'qr' });
    expect((await status(t, ws)).error).toBeUndefined();
    const device = await sim.scanQr(fresh.code, phone);
    expect(await statusWhen(t, ws, 'linked', (s) => s.connected === true)).toMatchObject({ state: 'connected', jid: device.jid });
    await statusWhen(t, ws, 'the initial sync done', (s) => (s.sync as Json).state === 'done');
  });

  it('a gated account entering a pairing code meets the same gate (Baileys acknowledges there; the driver adds no second ack)', async () => {
    const other = await newWorkspace(t);
    const phone = '15550103702';
    sim.gateAccount(phone);
    const acksBefore = sim.notificationAcks().length;
    const res = await requestPairingCode(t, other, { phone });
    expect(res.status).toBe(200);
    expect(await status(t, other)).toMatchObject({ state: 'pairing_code' });
    await sim.waitForPairingCode(phone);
    await expect(sim.enterPairingCode(phone, String((res.body as Json).code))).rejects.toThrow(PasskeyRequiredError);

    await statusWhen(t, other, 'passkey_required', (s) => s.state === 'passkey_required', 5_000);
    expect(await status(t, other)).toMatchObject({ logged_in: false, connected: false, error: PASSKEY_REQUIRED_ERROR });
    await eventually('the acknowledgements', () => sim.notificationAcks().length >= acksBefore + 3);
    await sleep(1_000);
    expect(
      sim
        .notificationAcks()
        .slice(acksBefore)
        .map((ack) => ack.type),
    ).toEqual(['link_code_companion_reg', ...PASSKEY_NOTIFICATION_TYPES]);
    // The creds Baileys wrote for the code (they name the number) are gone with the rest.
    expect(await authRows(t, other.workspaceId)).toBe(0);
    expect(sim.waitingToLink()).toBe(0);
  });
});
