import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ALREADY_LINKED } from '../../src/modules/chat/session/scan-session.runner.js';
import { QR_PAIRING_CODE } from '../../src/modules/chat/session/scan-state.service.js';
import { PAIRING_CODE_EXPIRED_ERROR } from '../../src/modules/chat/session/session-state.js';
import type { SseClient } from '../support/sse-client.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator, WrongPairingCodeError } from '../whatsapp-sim/whatsapp-simulator.js';
import {
  api,
  authRows,
  chat,
  countConnections,
  createE2eApp,
  eventually,
  linkSettled,
  messageWhen,
  newWorkspace,
  sentMessage,
  sleep,
  status,
  statusWhen,
  type E2eWorkspace,
  type Json,
} from './e2e-support.js';
import { requestPairingCode, sessionEvents, sessionStream } from './linking-support.js';

/**
 * Issue 37: linking by a pairing code typed on the phone, through the real driver and the
 * simulator's phone side of `link_code_companion_reg`; then the number behaves as a scanned link.
 * Also the session controls: stop (no socket, nothing reconnects) and restart (back on its keys).
 */
jest.setTimeout(90_000);

const PHONE = '15550103801';
const CODE = /^[1-9A-HJ-NP-TV-Z]{4}-[1-9A-HJ-NP-TV-Z]{4}$/;

describe('scan channel end to end: pairing codes, stop and restart', () => {
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

  it('refuses what is not a phone number with 400, before anything starts; API keys get 403', async () => {
    for (const phone of ['', 'abc', '0151234567', '12345', '+1 555 0103 8011 2222', null, 42]) {
      const res = await requestPairingCode(t, ws, { phone });
      expect([res.status, res.body]).toEqual([400, { error: 'invalid phone number' }]);
    }
    expect((await requestPairingCode(t, ws, {})).body).toEqual({ error: 'invalid phone number' });
    const byKey = await t.http().post('/api/chat/pairing-code').set('Authorization', `Bearer ${ws.key}`).send({ phone: PHONE });
    expect([byKey.status, byKey.body]).toEqual([403, { error: 'API keys cannot administer workspaces' }]);
    expect(await status(t, ws)).toMatchObject({ state: 'stopped', connected: false, logged_in: false });
    expect(sim.waitingToLink()).toBe(0);
  });

  it('a code for the number, state pairing_code meanwhile; the phone enters it: linked, then it behaves as a scanned link', async () => {
    const counts = countConnections(sim, PHONE);
    const res = await requestPairingCode(t, ws, { phone: `+${PHONE}` });
    expect([res.status, res.body]).toEqual([200, { code: expect.stringMatching(CODE), expires_at: expect.any(String) }]);
    const { code, expires_at } = res.body as { code: string; expires_at: string };
    expect(code).toMatch(CODE);
    // The channel's registration lasts 60 s + 5 × 20 s (six refs): the code is good until then.
    const left = Date.parse(expires_at) - Date.now();
    expect(left).toBeGreaterThan(120_000);
    expect(left).toBeLessThanOrEqual(160_000);

    const waiting = await status(t, ws);
    expect(waiting).toMatchObject({ state: 'pairing_code', connected: false, logged_in: false, qr_pending: false });
    expect(waiting.error).toBeUndefined();
    expect((await chat(t, { key: ws.key }, 'get', '/api/chat/qr')).body).toEqual({
      pending: false,
      image: '',
      error: QR_PAIRING_CODE,
      message: QR_PAIRING_CODE,
    });
    await stream.waitFor('the pairing_code event', (c) => sessionEvents(c).some((e) => e.state === 'pairing_code'));

    await sim.waitForPairingCode(PHONE);
    const device = await sim.enterPairingCode(PHONE, code);
    const linked = await statusWhen(t, ws, 'linked by code', (s) => s.connected === true);
    expect(linked).toMatchObject({ state: 'connected', logged_in: true, qr_pending: false, jid: device.jid });
    expect(device.jid).toMatch(new RegExp(`^${PHONE}:\\d+@s\\.whatsapp\\.net$`));
    await statusWhen(t, ws, 'the initial sync done', (s) => (s.sync as Json).state === 'done');

    // Inbound and outbound, as after a scan.
    const from = '4915100380001';
    const id = await sim.deliverText({ to: PHONE, from, name: 'Pia', text: 'linked by code?' });
    const inbound = await messageWhen(t, ws, id);
    expect(inbound).toMatchObject({ direction: 'inbound', content: 'linked by code?' });
    const sent = await api(t, ws, 'post', `/api/conversations/${String(inbound.conversation_id)}/messages`, { body: 'yes, by code' });
    expect(sent.status).toBe(201);
    const queued = await sentMessage(t, ws, String(inbound.conversation_id), String((sent.body as Json).id));
    expect(queued).toMatchObject({ status: 'sent' });
    expect(await sim.waitForSent((m) => m.id === queued.chat_message_id)).toMatchObject({ contact: from, text: 'yes, by code' });

    // A restart comes back on the keys: no QR code, no pairing code.
    await linkSettled(t, ws.workspaceId);
    const logins = counts.logins;
    const registrations = counts.qrs;
    const restarted = await chat(t, ws.owner, 'post', '/api/chat/restart');
    // With the body, so a failure says why.
    expect([restarted.status, restarted.body]).toEqual([200, expect.objectContaining({ logged_in: true })]);
    await eventually('a new login', () => counts.logins > logins, 20_000);
    expect(await statusWhen(t, ws, 'connected again', (s) => s.connected === true)).toMatchObject({ state: 'connected', jid: device.jid });
    expect(counts.qrs).toBe(registrations);
    const after = await sim.deliverText({ to: PHONE, from, text: 'after the restart' });
    expect(await messageWhen(t, ws, after)).toMatchObject({ content: 'after the restart' });

    // A pairing code for a linked number makes no sense.
    const again = await requestPairingCode(t, ws, { phone: PHONE });
    expect([again.status, again.body]).toEqual([409, { error: ALREADY_LINKED }]);
  });

  it('stop: the socket closes and stays closed (the link and keys stay); restart: connected again without a QR code', async () => {
    const counts = countConnections(sim, PHONE);
    const keys = await authRows(t, ws.workspaceId);
    const stopped = await chat(t, ws.owner, 'post', '/api/chat/stop');
    expect([stopped.status, stopped.body]).toEqual([200, { connected: false, logged_in: true, qr_pending: false, jid: expect.stringMatching(`^${PHONE}:`) }]);
    await sim.waitForOffline(PHONE);
    expect(sim.connectionsOf(PHONE)).toEqual([]);
    expect(await status(t, ws)).toMatchObject({ state: 'stopped', connected: false, logged_in: true });
    await stream.waitFor('the stopped event', (c) => sessionEvents(c).at(-1)?.state === 'stopped');
    // Nothing reconnects by itself (the sweep runs every 200 ms here).
    await sleep(1_500);
    expect(counts.logins).toBe(0);
    expect(sim.connectionsOf(PHONE)).toEqual([]);
    expect(await authRows(t, ws.workspaceId)).toBe(keys);

    const restarted = await chat(t, ws.owner, 'post', '/api/chat/restart');
    expect(restarted.status).toBe(200);
    expect(await statusWhen(t, ws, 'connected again', (s) => s.connected === true)).toMatchObject({ state: 'connected', logged_in: true });
    expect(counts.logins).toBeGreaterThan(0);
    expect(counts.qrs).toBe(0);
  });

  it('a wrong code is refused (still waiting, nothing linked); an expired code stops with what to do and leaves no keys', async () => {
    const other = await newWorkspace(t);
    const phone = '15550103802';
    const res = await requestPairingCode(t, other, { phone });
    expect(res.status).toBe(200);
    const code = String((res.body as Json).code);
    await sim.waitForPairingCode(phone);
    const wrong = code.startsWith('A') ? `B${code.slice(1)}` : `A${code.slice(1)}`;
    await expect(sim.enterPairingCode(phone, wrong)).rejects.toThrow(WrongPairingCodeError);
    await sleep(500);
    expect(await status(t, other)).toMatchObject({ state: 'pairing_code', logged_in: false, connected: false });
    expect(sim.devicesOf(phone)).toEqual([]);

    // The channel's time for the registration runs out (the simulator ends it now).
    sim.expireQr();
    const expired = await statusWhen(t, other, 'the expired code', (s) => s.error === PAIRING_CODE_EXPIRED_ERROR);
    expect(expired).toMatchObject({ state: 'stopped', logged_in: false, connected: false, qr_pending: false });
    await expect(sim.enterPairingCode(phone, code)).rejects.toThrow(`no connected client waits for a pairing code for ${phone}`);
    expect(await authRows(t, other.workspaceId)).toBe(0);
    // Nothing starts over by itself; a new request gives a new code.
    await sleep(500);
    expect(sim.waitingToLink()).toBe(0);
    const fresh = await requestPairingCode(t, other, { phone });
    expect([fresh.status, fresh.body]).toEqual([200, { code: expect.stringMatching(CODE), expires_at: expect.any(String) }]);
    expect((fresh.body as Json).code).not.toBe(code);
    expect((await status(t, other)).error).toBeUndefined();
    expect((await chat(t, other.owner, 'post', '/api/chat/stop')).status).toBe(200);
    expect(await status(t, other)).toMatchObject({ state: 'stopped', logged_in: false });
    expect(await authRows(t, other.workspaceId)).toBe(0);
  });
});
