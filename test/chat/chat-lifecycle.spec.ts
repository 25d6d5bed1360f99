import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { QR_CONNECT_FIRST, QR_EXPIRED, QR_SCANNED } from '../../src/modules/chat/session/scan-state.service.js';
import { dataOf, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import { chat, createChatApp, eventually, socketOf, type ChatTestApp } from './chat-support.js';

/** `endpoint` of the status without WA_WEBSOCKET_URL, outside production. */
const WHATSAPP = { url: 'wss://web.whatsapp.com/ws/chat', default: true, development: true };

const sessionEvents = (client: SseClient): Record<string, unknown>[] => client.events.filter((e) => e.event === 'session.updated').map((e) => dataOf(e));

// The contract's states: docs/contract.md#states.
describe('scan session lifecycle (contract section 3)', () => {
  let t: ChatTestApp;
  let workspaceId: string;
  let owner: { cookie: string; workspaceId: string };
  let key: string;
  let stream: SseClient;

  beforeAll(async () => {
    t = await createChatApp();
    const created = await t.factories.workspaceWithOwner();
    workspaceId = created.workspace.id;
    owner = { cookie: created.owner.cookie, workspaceId };
    key = created.key;
    stream = await openSse(`${await listenUrl(t.app)}/api/events`, { Authorization: `Bearer ${key}` });
  });
  afterAll(async () => {
    stream?.close();
    await t?.close();
  });

  it('starts not linked: no QR until connect is called', async () => {
    const status = await chat(t, { key }, 'get', '/api/chat/status');
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      connected: false,
      logged_in: false,
      qr_pending: false,
      state: 'stopped',
      since: expect.any(String),
      sync: { state: 'idle', progress: 0 },
      // Nothing sent yet: no first contact used, no chat at its unanswered cap, an empty queue.
      limits: {
        first_contacts: { used: 0, cap: 100000, resets_at: null },
        unanswered: { cap: 100000, chats_at_cap: 0 },
        queue: { depth: 0, oldest_queued_at: null },
      },
      placement: null,
    });
    // The Console (a signed-in member) also learns where the sessions connect; keys never do.
    expect((await chat(t, owner, 'get', '/api/chat/status')).body.endpoint).toEqual(WHATSAPP);
    const qr = await chat(t, { key }, 'get', '/api/chat/qr');
    expect(qr.body).toEqual({ pending: false, image: '', error: QR_CONNECT_FIRST, message: QR_CONNECT_FIRST });
  });

  it('connect on a number not linked makes a QR code available and answers the session state', async () => {
    const res = await chat(t, owner, 'post', '/api/chat/connect');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ connected: false, logged_in: false, qr_pending: true });
    const socket = await socketOf(t, workspaceId);
    const shown = socket.events.find((e) => e.type === 'qr');
    const qr = await chat(t, { key }, 'get', '/api/chat/qr');
    expect(qr.status).toBe(200);
    expect(qr.body).toMatchObject({ pending: true, code: shown && 'code' in shown ? shown.code : 'missing' });
    expect(qr.body.error).toBeUndefined();
    expect(qr.body.message).toBeUndefined();
    expect((await chat(t, { key }, 'get', '/api/chat/status')).body).toMatchObject({ state: 'qr', qr_pending: true });
    await stream.waitFor('the QR state event', (c) => sessionEvents(c).some((e) => e.qr_pending === true && e.state === 'qr'));
  });

  it('serves the code as a 256 px PNG data URL made from exactly that payload', async () => {
    const qr = await chat(t, { key }, 'get', '/api/chat/qr');
    const image = String(qr.body.image);
    expect(image.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(image.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([256, 256]);
  });

  it('shows the rotated code while pending', async () => {
    const socket = await socketOf(t, workspaceId);
    const code = socket.rotateQr();
    await eventually('the rotated code', async () => (await chat(t, { key }, 'get', '/api/chat/qr')).body.code === code);
  });

  it('says until when the code is valid when the driver knows it (`expires_at`), and nothing when it does not', async () => {
    const socket = await socketOf(t, workspaceId);
    const code = socket.rotateQr(new Date('2031-05-06T07:08:09.123Z'));
    const qr = await eventually('the rotated code', async () => {
      const body = (await chat(t, { key }, 'get', '/api/chat/qr')).body as Record<string, unknown>;
      return body.code === code ? body : undefined;
    });
    expect(qr).toMatchObject({ pending: true, expires_at: '2031-05-06T07:08:09.123Z' });

    const unknown = socket.rotateQr();
    const next = await eventually('the next code', async () => {
      const body = (await chat(t, { key }, 'get', '/api/chat/qr')).body as Record<string, unknown>;
      return body.code === unknown ? body : undefined;
    });
    expect(Object.keys(next).sort()).toEqual(['code', 'image', 'pending']);
  });

  it('between the scan and the login: no code waits any more, the number is linked but not connected yet', async () => {
    const first = await socketOf(t, workspaceId);
    await first.scan('4915123456789', 12, { restart: false });
    const linking = await eventually('the scanned state', async () => {
      const body = (await chat(t, { key }, 'get', '/api/chat/status')).body as Record<string, unknown>;
      return body.logged_in === true ? body : undefined;
    });
    expect(linking).toEqual({
      connected: false,
      logged_in: true,
      qr_pending: false,
      jid: '4915123456789:12@s.whatsapp.net',
      state: 'connecting',
      since: expect.any(String),
      sync: { state: 'idle', progress: 0 },
      limits: expect.objectContaining({ queue: { depth: 0, oldest_queued_at: null } }),
      placement: null,
    });
    // Neither the code that was just scanned nor "expired": the QR endpoint says it was scanned.
    const qr = await chat(t, { key }, 'get', '/api/chat/qr');
    expect(qr.body).toEqual({ pending: false, image: '', error: QR_SCANNED, message: QR_SCANNED });
    await stream.waitFor('the scanned event', (c) => sessionEvents(c).some((e) => e.logged_in === true));
    expect(sessionEvents(stream).at(-1)).toEqual({
      connected: false,
      logged_in: true,
      qr_pending: false,
      jid: '4915123456789:12@s.whatsapp.net',
      state: 'connecting',
      since: linking.since,
    });
    // A connect meanwhile starts nothing: the link is being finished.
    const again = await chat(t, owner, 'post', '/api/chat/connect');
    expect(again.body).toEqual({ connected: false, logged_in: true, qr_pending: false, jid: '4915123456789:12@s.whatsapp.net' });
    expect(t.driver.of(workspaceId)).toHaveLength(1);
  });

  it('after the scan (pairing, 515 restart, login) reports logged_in and connected with the jid', async () => {
    const first = await socketOf(t, workspaceId);
    first.closeWith(515, 'Stream Errored (restart required)');
    const status = await eventually('the linked session', async () => {
      const body = (await chat(t, { key }, 'get', '/api/chat/status')).body as Record<string, unknown>;
      return body.connected === true ? body : undefined;
    });
    expect(status).toEqual({
      connected: true,
      logged_in: true,
      qr_pending: false,
      jid: '4915123456789:12@s.whatsapp.net',
      state: 'connected',
      since: expect.any(String),
      sync: { state: 'idle', progress: 0 },
      limits: expect.objectContaining({ queue: { depth: 0, oldest_queued_at: null } }),
      placement: { state: 'held', explanation: 'a worker holds this number' },
    });
    // The restart after pairing opened a second socket with the saved creds.
    expect(t.driver.of(workspaceId)).toHaveLength(2);
    expect(t.driver.latest(workspaceId)!.events.map((e) => e.type)).toEqual(['open']);
    const qr = await chat(t, { key }, 'get', '/api/chat/qr');
    expect(qr.body).toEqual({ pending: false, image: '', error: QR_CONNECT_FIRST, message: QR_CONNECT_FIRST });
    await stream.waitFor('the linked event', (c) => sessionEvents(c).some((e) => e.connected === true));
    expect(sessionEvents(stream).at(-1)).toEqual({
      connected: true,
      logged_in: true,
      qr_pending: false,
      jid: '4915123456789:12@s.whatsapp.net',
      state: 'connected',
      since: status.since,
    });
  });

  it('connect on a linked, connected number answers its state without a new socket', async () => {
    const sockets = t.driver.of(workspaceId).length;
    const res = await chat(t, owner, 'post', '/api/chat/connect');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ connected: true, logged_in: true, qr_pending: false, jid: '4915123456789:12@s.whatsapp.net' });
    expect(t.driver.of(workspaceId)).toHaveLength(sockets);
  });

  it('disconnect logs the device out, deletes the auth state and answers not linked', async () => {
    const socket = await socketOf(t, workspaceId);
    const res = await chat(t, owner, 'post', '/api/chat/disconnect');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ connected: false, logged_in: false, qr_pending: false });
    expect(socket.loggedOut).toBe(true);
    await stream.waitFor('the unlinked event', (c) => sessionEvents(c).at(-1)?.logged_in === false);
    const rows: { linked: boolean; desired: string }[] = await t.dataSource.query('SELECT linked, desired FROM scan_sessions WHERE workspace_id = $1', [
      workspaceId,
    ]);
    expect(rows).toEqual([{ linked: false, desired: 'stopped' }]);
  });

  it('after disconnect, connect starts from a fresh QR (the keys are gone)', async () => {
    const res = await chat(t, owner, 'post', '/api/chat/connect');
    expect(res.body).toEqual({ connected: false, logged_in: false, qr_pending: true });
    const socket = await socketOf(t, workspaceId);
    expect(socket.events.map((e) => e.type)).toEqual(['qr']);
  });

  it('when the QR codes run out (408), reports the expired QR until the next connect', async () => {
    const socket = await socketOf(t, workspaceId);
    socket.closeWith(408, 'QR refs attempts ended', { qrExpired: true });
    const qr = await eventually('the expired QR', async () => {
      const body = (await chat(t, { key }, 'get', '/api/chat/qr')).body as Record<string, unknown>;
      return body.error === QR_EXPIRED ? body : undefined;
    });
    expect(qr).toEqual({ pending: false, image: '', error: QR_EXPIRED, message: QR_EXPIRED });
    // No new socket (and so no new QR) on its own.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.driver.latest(workspaceId)).toBe(socket);
    expect((await chat(t, { key }, 'get', '/api/chat/status')).body).toMatchObject({ connected: false, logged_in: false, qr_pending: false });

    const again = await chat(t, owner, 'post', '/api/chat/connect');
    expect(again.body).toEqual({ connected: false, logged_in: false, qr_pending: true });
    expect((await chat(t, { key }, 'get', '/api/chat/qr')).body.pending).toBe(true);
  });

  it('answers 500 with the reason when the session cannot start', async () => {
    const other = await t.factories.workspaceWithOwner();
    t.driver.failNextOpen.set(other.workspace.id, 'database of keys unreachable');
    const res = await chat(t, { cookie: other.owner.cookie, workspaceId: other.workspace.id }, 'post', '/api/chat/connect');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'the session could not be started: database of keys unreachable' });
    const status = await chat(t, { key: other.key }, 'get', '/api/chat/status');
    expect(status.body).toMatchObject({ connected: false, logged_in: false, error: 'the session could not be started: database of keys unreachable' });
  });
});
