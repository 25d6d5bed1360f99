import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import {
  authRows,
  chat,
  countConnections,
  createE2eApp,
  eventually,
  link,
  newWorkspace,
  pendingQr,
  sleep,
  status,
  statusWhen,
  type Json,
} from './e2e-support.js';

/**
 * Issue 34, items 5 and 6: a number the phone unlinked says why, through the real Baileys driver
 * against the simulator; the status names the endpoint the sessions use; a QR code says until
 * when it is valid.
 */
jest.setTimeout(60_000);

const REMOVED = 'logged out from the phone (the device was removed in Linked devices): call POST /api/chat/connect to link the number again';
const LOGGED_OUT =
  'WhatsApp logged this device out (401 logged out: removed in Linked devices on the phone, or no longer known to WhatsApp): call POST /api/chat/connect to link the number again';
// Baileys shows the first code of a connect this long (then 20 s per rotation).
const FIRST_QR_MS = 60_000;

describe('scan channel end to end: the phone unlinks the device', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    t = await createE2eApp(sim);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.stop();
  });

  it('removed in Linked devices: not linked, the status and the QR endpoint say why, the keys are gone, nothing reconnects; connect starts over', async () => {
    const phone = '15550100021';
    const ws = await newWorkspace(t);
    await link(t, sim, ws, phone);
    const counts = countConnections(sim, phone);

    sim.unlink(phone);
    const unlinked = await statusWhen(t, ws, 'unlinked', (s) => s.logged_in === false);
    expect(unlinked).toMatchObject({ connected: false, logged_in: false, qr_pending: false, error: REMOVED });
    expect(unlinked.jid).toBeUndefined();
    expect((await chat(t, { key: ws.key }, 'get', '/api/chat/qr')).body).toEqual({ pending: false, image: '', error: REMOVED, message: REMOVED });
    await eventually('the auth state deleted', async () => (await authRows(t, ws.workspaceId)) === 0);
    // A reconnect would log in (and be refused) within the reconnect delay, tens of milliseconds here.
    await sleep(1_000);
    expect(counts.logins).toBe(0);

    const res = await chat(t, ws.owner, 'post', '/api/chat/connect');
    expect([res.status, res.body]).toEqual([200, { connected: false, logged_in: false, qr_pending: true }]);
    expect((await status(t, ws)).error).toBeUndefined();
    const device = await sim.scanQr((await pendingQr(t, ws)).code, phone);
    expect(await statusWhen(t, ws, 'linked again', (s) => s.connected === true)).toMatchObject({ logged_in: true, jid: device.jid });
    expect((await status(t, ws)).error).toBeUndefined();
  });

  it('a 401 failure (WhatsApp no longer knows the device): not linked, and the status says WhatsApp logged it out', async () => {
    const phone = '15550100022';
    const ws = await newWorkspace(t);
    await link(t, sim, ws, phone);

    sim.failure(phone, 401);
    const unlinked = await statusWhen(t, ws, 'unlinked', (s) => s.logged_in === false);
    expect(unlinked).toMatchObject({ connected: false, logged_in: false, qr_pending: false, error: LOGGED_OUT });
    await eventually('the auth state deleted', async () => (await authRows(t, ws.workspaceId)) === 0);
  });

  it('names the WebSocket endpoint in the status, and gives a QR code the time Baileys replaces it', async () => {
    const ws = await newWorkspace(t);
    // The Console (a signed-in member) is told where the sessions connect; API keys are not.
    expect((await chat(t, ws.owner, 'get', '/api/chat/status')).body.endpoint).toEqual({ url: sim.url, default: false, development: true });
    expect(await status(t, ws)).not.toHaveProperty('endpoint');

    const before = Date.now();
    expect((await chat(t, ws.owner, 'post', '/api/chat/connect')).status).toBe(200);
    const qr: Json = await pendingQr(t, ws);
    const after = Date.now();
    expect(typeof qr.expires_at).toBe('string');
    const expiresAt = Date.parse(String(qr.expires_at));
    expect(new Date(expiresAt).toISOString()).toBe(qr.expires_at);
    // Issued between the connect and the answer that showed it; valid for the first code's 60 s.
    expect(expiresAt).toBeGreaterThanOrEqual(before + FIRST_QR_MS);
    expect(expiresAt).toBeLessThanOrEqual(after + FIRST_QR_MS);

    // Not linked and not waiting: no code, no expiry.
    expect((await chat(t, ws.owner, 'post', '/api/chat/disconnect')).status).toBe(200);
    const none = (await chat(t, { key: ws.key }, 'get', '/api/chat/qr')).body as Json;
    expect(none).toMatchObject({ pending: false, image: '' });
    expect(none.expires_at).toBeUndefined();
  });
});
