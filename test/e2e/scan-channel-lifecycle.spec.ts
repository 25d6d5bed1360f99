import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { QR_EXPIRED } from '../../src/modules/chat/session/scan-state.service.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import {
  authRows,
  chat,
  countConnections,
  createE2eApp,
  eventually,
  link,
  linkSettled,
  messageWhen,
  newWorkspace,
  pendingQr,
  sleep,
  status,
  statusWhen,
  type E2eWorkspace,
  type SimCounts,
} from './e2e-support.js';

/**
 * Restarts and close codes end to end (issue 12, items 4–6). The HTTP side is an `api` process
 * that lives for the whole file (it owns the database); the socket lives in a `worker` replica,
 * which is what a restart closes and starts again.
 */
jest.setTimeout(60_000);

const PHONE = '15550100002';

describe('scan channel end to end: restarts and close codes', () => {
  let sim: WhatsAppSimulator;
  let api: TestApp;
  let worker: TestApp | undefined;
  let ws: E2eWorkspace;
  let counts: SimCounts;

  const startWorker = async (): Promise<TestApp> => {
    worker = await createE2eApp(sim, { replicaOf: api, env: { ROLE: 'worker', WA_KEEPALIVE_MS: '1000' } });
    return worker;
  };
  /** Resolves at the phone's next login (bounded). */
  const nextLogin = (): Promise<boolean> => {
    const seen = counts.logins;
    return eventually('a new login', () => counts.logins > seen, 20_000);
  };

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    counts = countConnections(sim, PHONE);
    api = await createE2eApp(sim, { env: { ROLE: 'api' } });
    await startWorker();
    ws = await newWorkspace(api);
    await link(api, sim, ws, PHONE);
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await sim?.stop();
  });

  it('after a restart the session comes back without a QR, and messages written meanwhile arrive', async () => {
    const qrsBefore = counts.qrs;
    await linkSettled(api, ws.workspaceId);
    await worker!.close();
    worker = undefined;
    await sim.waitForOffline(PHONE);
    await statusWhen(api, ws, 'disconnected', (s) => s.connected === false);
    const id = await sim.deliverText({ to: PHONE, from: '4915100300001', name: 'Max', text: 'sent during the restart' });

    await startWorker();
    const back = await statusWhen(api, ws, 'resumed', (s) => s.connected === true);
    expect(back).toMatchObject({ connected: true, logged_in: true, qr_pending: false, jid: expect.stringMatching(new RegExp(`^${PHONE}:`)) });
    expect(await messageWhen(api, ws, id)).toMatchObject({ content: 'sent during the restart', direction: 'inbound' });
    expect(counts.qrs).toBe(qrsBefore);
  });

  it('515 from the server: reconnects at once with the same keys', async () => {
    const login = nextLogin();
    sim.streamError(PHONE, 515);
    await login;
    const s = await statusWhen(api, ws, 'connected', (x) => x.connected === true);
    expect(s.error).toBeUndefined();
    const id = await sim.deliverText({ to: PHONE, from: '4915100300002', text: 'after 515' });
    await messageWhen(api, ws, id);
  });

  it('428 (the connection dropped) reconnects with backoff', async () => {
    const login = nextLogin();
    sim.dropConnection(PHONE);
    await login;
    await sim.waitForLive(PHONE);
    const s = await statusWhen(api, ws, 'connected', (x) => x.connected === true);
    expect(s).toMatchObject({ logged_in: true });
    expect(s.error).toBeUndefined();
  });

  it('a silent connection is declared lost after the keepalive and reconnected', async () => {
    const login = nextLogin();
    sim.silence(PHONE);
    // Keepalive 1 s here: Baileys gives up after 1 s + 5 s without an answer (408), then the backoff.
    await login;
    await sim.waitForLive(PHONE);
    const s = await statusWhen(api, ws, 'connected', (x) => x.connected === true);
    expect(s.error).toBeUndefined();
    const id = await sim.deliverText({ to: PHONE, from: '4915100300003', text: 'after the silence' });
    await messageWhen(api, ws, id);
  });

  it('440 (replaced) stops without a reconnect loop and says why; connect takes the number back', async () => {
    sim.streamError(PHONE, 440);
    const stopped = await statusWhen(api, ws, 'stopped on 440', (s) => typeof s.error === 'string');
    expect(stopped).toMatchObject({
      connected: false,
      logged_in: true,
      error: 'another connection took over this number (440 connection replaced); call POST /api/chat/connect to take it back',
    });
    const seen = counts.logins;
    // A loop would log in again within the reconnect delay (80 ms at most here) or the next sweep
    // (every 200 ms): 1.5 s covers both many times over, as in the pairing-code test.
    await sleep(1_500);
    expect(counts.logins).toBe(seen);
    expect(sim.isOnline(PHONE)).toBe(false);

    const res = await chat(api, ws.owner, 'post', '/api/chat/connect');
    expect(res.status).toBe(200);
    await statusWhen(api, ws, 'connected again', (s) => s.connected === true && s.error === undefined);
    expect(counts.logins).toBe(seen + 1);
  });

  it('401 from the phone: not linked, the auth state deleted, no reconnect', async () => {
    expect(await authRows(api, ws.workspaceId)).toBeGreaterThan(0);
    sim.failure(PHONE, 401);
    const s = await statusWhen(api, ws, 'unlinked', (x) => x.logged_in === false);
    expect(s).toMatchObject({ connected: false, logged_in: false, qr_pending: false });
    expect(s.jid).toBeUndefined();
    await eventually('the auth state deleted', async () => (await authRows(api, ws.workspaceId)) === 0);
    const seen = counts.logins;
    await sleep(1_000);
    expect(counts.logins).toBe(seen);
  });

  it('an expired QR is reported until the next connect, which shows a new one', async () => {
    expect((await chat(api, ws.owner, 'post', '/api/chat/connect')).status).toBe(200);
    const first = await pendingQr(api, ws);
    sim.expireQr();
    const expired = await pollQr(api, ws, (b) => b.error === QR_EXPIRED);
    expect(expired).toEqual({ pending: false, image: '', error: QR_EXPIRED, message: QR_EXPIRED });
    expect((await status(api, ws)).qr_pending).toBe(false);

    expect((await chat(api, ws.owner, 'post', '/api/chat/connect')).status).toBe(200);
    const second = await pendingQr(api, ws);
    expect(second.code).not.toBe(first.code);
  });
});

async function pollQr(t: TestApp, ws: E2eWorkspace, check: (b: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const body = (await chat(t, { key: ws.key }, 'get', '/api/chat/qr')).body as Record<string, unknown>;
    if (check(body)) return body;
    if (Date.now() > deadline) throw new Error(`the QR never matched: ${JSON.stringify(body)}`);
    await sleep(50);
  }
}
