import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dataOf, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import type { FakeScanSocket } from '../support/fake-scan-driver.js';
import { chat, createChatApp, eventually, socketOf, type ChatTestApp } from './chat-support.js';

/**
 * The session's `state` by name (issue 37, docs/chat.md#states) through each close code and each
 * control, with the fake driver: what `GET /api/chat/status` says, that `since` moves only when the
 * state changes, and that every change reaches the live stream.
 */
describe('scan session states', () => {
  let t: ChatTestApp;

  beforeAll(async () => {
    t = await createChatApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  interface Ws {
    workspaceId: string;
    key: string;
    owner: { cookie: string; workspaceId: string };
    stream: SseClient;
  }

  const workspace = async (): Promise<Ws> => {
    const { workspace: w, owner, key } = await t.factories.workspaceWithOwner();
    const stream = await openSse(`${await listenUrl(t.app)}/api/events`, { Authorization: `Bearer ${key}` });
    return { workspaceId: w.id, key, owner: { cookie: owner.cookie, workspaceId: w.id }, stream };
  };
  const status = async (ws: Ws): Promise<Record<string, unknown>> =>
    (await chat(t, { key: ws.key }, 'get', '/api/chat/status')).body as Record<string, unknown>;
  const stateIs = (ws: Ws, state: string): Promise<Record<string, unknown>> =>
    eventually(`state ${state}`, async () => {
      const s = await status(ws);
      return s.state === state ? s : undefined;
    });
  /** The states the live stream reported, in order, without repeats. */
  const streamed = (ws: Ws): unknown[] =>
    ws.stream.events
      .filter((e) => e.event === 'session.updated')
      .map((e) => dataOf(e).state)
      .filter((state, i, all) => i === 0 || state !== all[i - 1]);

  const linked = async (ws: Ws): Promise<FakeScanSocket> => {
    expect((await chat(t, ws.owner, 'post', '/api/chat/connect')).status).toBe(200);
    await (await socketOf(t, ws.workspaceId)).scan();
    const socket = await socketOf(t, ws.workspaceId, (s) => s.events.some((e) => e.type === 'open'));
    await stateIs(ws, 'connected');
    return socket;
  };

  it('stopped → qr → connecting (scanned) → connected; since moves with the state only', async () => {
    const ws = await workspace();
    expect(await status(ws)).toMatchObject({ state: 'stopped' });
    expect((await chat(t, ws.owner, 'post', '/api/chat/connect')).status).toBe(200);
    const qr = await stateIs(ws, 'qr');
    // A rotation changes the code, not the state.
    const socket = await socketOf(t, ws.workspaceId);
    const rotated = socket.rotateQr();
    await eventually('the rotated code', async () => (await chat(t, { key: ws.key }, 'get', '/api/chat/qr')).body.code === rotated);
    expect((await status(ws)).since).toBe(qr.since);

    await socket.scan();
    const connected = await stateIs(ws, 'connected');
    expect(Date.parse(String(connected.since))).toBeGreaterThanOrEqual(Date.parse(String(qr.since)));
    await ws.stream.waitFor('the connected event', (c) => streamed({ ...ws, stream: c }).includes('connected'));
    const states = streamed(ws);
    expect(states.slice(states.indexOf('qr'))).toEqual(['qr', 'connecting', 'connected']);
    ws.stream.close();
  });

  it('a lost connection is reconnecting, then connecting, then connected again', async () => {
    const ws = await workspace();
    const socket = await linked(ws);
    t.driver.manualStart.add(ws.workspaceId);
    socket.closeWith(428, 'Connection Terminated');
    const next = await socketOf(t, ws.workspaceId, (s) => s !== socket);
    expect(await stateIs(ws, 'connecting')).toMatchObject({ connected: false, logged_in: true });
    t.driver.manualStart.delete(ws.workspaceId);
    await next.start();
    await stateIs(ws, 'connected');
    await ws.stream.waitFor('connected again', (c) => streamed({ ...ws, stream: c }).filter((s) => s === 'connected').length >= 2);
    const states = streamed(ws);
    expect(states.slice(states.indexOf('connected'))).toEqual(['connected', 'reconnecting', 'connecting', 'connected']);
    ws.stream.close();
  });

  it.each([
    [403, {}, 'failed', true],
    [440, {}, 'failed', true],
    [401, { removed: true }, 'logged_out', false],
  ] as const)('closed with %s %j: %s (logged_in %s), with the error, and it stays so', async (code, flags, state, keepsLink) => {
    const ws = await workspace();
    const socket = await linked(ws);
    socket.closeWith(code, 'closed', flags);
    const after = await stateIs(ws, state);
    expect(after).toMatchObject({ connected: false, logged_in: keepsLink, error: expect.any(String) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await status(ws)).toMatchObject({ state, since: after.since });
    await ws.stream.waitFor('the event', (c) => streamed({ ...ws, stream: c }).at(-1) === state);
    ws.stream.close();
  });

  it('stop keeps the link (stopped, logged_in) and nothing resumes it; restart connects on the same keys', async () => {
    const ws = await workspace();
    const socket = await linked(ws);
    const creds = await socket.options.auth.readCreds();
    const stopped = await chat(t, ws.owner, 'post', '/api/chat/stop');
    expect(stopped.body).toEqual({ connected: false, logged_in: true, qr_pending: false, jid: '4915123456789:12@s.whatsapp.net' });
    expect(socket.closedByService).toBe(true);
    expect(await stateIs(ws, 'stopped')).toMatchObject({ connected: false, logged_in: true });
    await new Promise((resolve) => setTimeout(resolve, 600)); // the sweep runs every 200 ms here
    expect(t.driver.latest(ws.workspaceId)).toBe(socket);
    expect(await socket.options.auth.readCreds()).toBe(creds);

    expect((await chat(t, ws.owner, 'post', '/api/chat/restart')).body).toMatchObject({ logged_in: true });
    const next = await socketOf(t, ws.workspaceId, (s) => s !== socket && s.events.some((e) => e.type === 'open'));
    expect(next.events.map((e) => e.type)).toEqual(['open']);
    await stateIs(ws, 'connected');
    ws.stream.close();
  });

  it('stopping a number that waits for its scan drops the keys made for it', async () => {
    const ws = await workspace();
    expect((await chat(t, ws.owner, 'post', '/api/chat/connect')).body).toMatchObject({ qr_pending: true });
    const socket = await socketOf(t, ws.workspaceId);
    expect(await socket.options.auth.readCreds()).not.toBeNull();
    expect((await chat(t, ws.owner, 'post', '/api/chat/stop')).body).toEqual({ connected: false, logged_in: false, qr_pending: false });
    expect(await stateIs(ws, 'stopped')).toMatchObject({ logged_in: false, qr_pending: false });
    expect(await socket.options.auth.readCreds()).toBeNull();
    ws.stream.close();
  });

  it('a pairing code: pairing_code while it waits, then linked as after a scan; the driver is asked for the number given', async () => {
    const ws = await workspace();
    const res = await t
      .http()
      .post('/api/chat/pairing-code')
      .set('Cookie', ws.owner.cookie)
      .set('X-Tenant-ID', ws.workspaceId)
      .send({ phone: '+49 151 2345 6789' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 'CODE-0001', expires_at: expect.any(String) });
    const socket = await socketOf(t, ws.workspaceId);
    expect(socket.pairingCodes).toEqual(['4915123456789']);
    expect(await stateIs(ws, 'pairing_code')).toMatchObject({ qr_pending: false, logged_in: false });
    // Connect meanwhile starts nothing new: the code waits.
    expect((await chat(t, ws.owner, 'post', '/api/chat/connect')).body).toEqual({ connected: false, logged_in: false, qr_pending: false });
    expect(t.driver.of(ws.workspaceId)).toHaveLength(1);

    await socket.scan();
    expect(await stateIs(ws, 'connected')).toMatchObject({ logged_in: true, jid: '4915123456789:12@s.whatsapp.net' });
    ws.stream.close();
  });
});
