import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { HttpConnectProxy, Socks5Proxy } from '../fakes/proxy/index.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { chat, countConnections, createE2eApp, link, newWorkspace, sleep, status, statusWhen, type E2eWorkspace, type Json } from './e2e-support.js';
import { proxyStopped, putProxy } from './proxy-support.js';

/**
 * Issue 37: a proxy that refuses is a clear status `error`, not a silent reconnect loop. The real
 * Baileys driver on the simulator: connecting through a proxy that is down, that refuses the
 * credentials or that cannot reach WhatsApp answers why (connect 500, status, no retry); a linked
 * number whose proxy goes away stops with the reason, keeps its link, and connects again once the
 * proxy is back.
 */
jest.setTimeout(90_000);

const AUTH = { username: 'egress', password: 'right' };

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function sessionRow(t: TestApp, workspaceId: string): Promise<Json> {
  const rows = (await t.dataSource.query('SELECT desired, linked, last_error FROM scan_sessions WHERE workspace_id = $1', [workspaceId])) as Json[];
  return rows[0]!;
}

describe('scan channel end to end: a proxy that fails before the first QR code', () => {
  let sim: WhatsAppSimulator;
  let http: HttpConnectProxy;
  let socks: Socks5Proxy;
  let t: TestApp;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    http = await HttpConnectProxy.start({ auth: AUTH });
    socks = await Socks5Proxy.start({ auth: AUTH });
    t = await createE2eApp(sim);
  });
  afterAll(async () => {
    await t?.close();
    await http?.stop();
    await socks?.stop();
    await sim?.stop();
  });

  it.each([
    [
      'a SOCKS5 proxy that is down',
      async () => {
        const port = await closedPort();
        return {
          url: `socks5://127.0.0.1:${port}`,
          failure: `the proxy socks5://127.0.0.1:${port} refused the connection (connect ECONNREFUSED 127.0.0.1:${port})`,
        };
      },
    ],
    [
      'an HTTP proxy given the wrong password',
      () =>
        Promise.resolve({
          url: http.url({ username: AUTH.username, password: 'wrong' }),
          failure: `the proxy http://egress:***@127.0.0.1:${http.port} refused the credentials (407 Proxy Authentication Required)`,
        }),
    ],
    [
      'a SOCKS5 proxy given the wrong password',
      () =>
        Promise.resolve({
          url: socks.url({ username: AUTH.username, password: 'wrong' }),
          failure: `the proxy socks5://egress:***@127.0.0.1:${socks.port} refused the credentials (SOCKS5 authentication failed)`,
        }),
    ],
    [
      'a SOCKS5 proxy given no credentials',
      () =>
        Promise.resolve({
          url: `socks5://127.0.0.1:${socks.port}`,
          failure: `the proxy socks5://127.0.0.1:${socks.port} asks for credentials (SOCKS5)`,
        }),
    ],
    [
      'an HTTP proxy given no credentials',
      () =>
        Promise.resolve({
          url: `http://127.0.0.1:${http.port}`,
          failure: `the proxy http://127.0.0.1:${http.port} asks for credentials (407 Proxy Authentication Required)`,
        }),
    ],
  ])('%s: connect answers 500 with the reason, the status carries it, nothing retries', async (_what, setup) => {
    const ws = await newWorkspace(t);
    const { url, failure } = await setup();
    expect((await putProxy(t, ws, url)).status).toBe(200);
    const text = proxyStopped(failure);
    const counts = countConnections(sim, '');
    const res = await chat(t, ws.owner, 'post', '/api/chat/connect');
    expect([res.status, res.body]).toEqual([500, { error: text }]);
    expect(await status(t, ws)).toMatchObject({ connected: false, logged_in: false, qr_pending: false, error: text });
    expect(await sessionRow(t, ws.workspaceId)).toEqual({ desired: 'stopped', linked: false, last_error: text });
    // Stopped: no socket tries again on its own (none reached the simulator in the first place).
    const asked = http.connections.length + socks.connections.length;
    await sleep(500);
    expect(http.connections.length + socks.connections.length).toBe(asked);
    expect(counts.qrs).toBe(0);
  });

  it('an HTTP proxy that cannot reach WhatsApp: the reason names the target it could not connect to', async () => {
    const port = await closedPort();
    const unreachable = await createE2eApp(sim, { env: { WA_WEBSOCKET_URL: `ws://127.0.0.1:${port}/ws/chat` } });
    try {
      const ws = await newWorkspace(unreachable);
      expect((await putProxy(unreachable, ws, http.url())).status).toBe(200);
      const res = await chat(unreachable, ws.owner, 'post', '/api/chat/connect');
      expect([res.status, res.body]).toEqual([
        500,
        { error: proxyStopped(`the proxy http://egress:***@127.0.0.1:${http.port} could not connect to 127.0.0.1:${port} (502 Bad Gateway)`) },
      ]);
    } finally {
      await unreachable.close();
    }
  });
});

describe('scan channel end to end: the proxy of a linked number goes down', () => {
  const PHONE = '15550100373';
  let sim: WhatsAppSimulator;
  let proxy: Socks5Proxy;
  let t: TestApp;
  let ws: E2eWorkspace;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    proxy = await Socks5Proxy.start({ auth: AUTH });
    t = await createE2eApp(sim);
    ws = await newWorkspace(t);
    expect((await putProxy(t, ws, proxy.url())).status).toBe(200);
    await link(t, sim, ws, PHONE);
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.stop();
    await sim?.stop();
  });

  it('stops with the reason and keeps its link (no reconnect loop); once the proxy is back, connect links again without a QR', async () => {
    const counts = countConnections(sim, PHONE);
    const port = proxy.port;
    await proxy.stop();
    const text = proxyStopped(`the proxy socks5://egress:***@127.0.0.1:${port} refused the connection (connect ECONNREFUSED 127.0.0.1:${port})`);
    const stopped = await statusWhen(t, ws, 'the proxy error', (s) => typeof s.error === 'string');
    expect(stopped).toMatchObject({ connected: false, logged_in: true, qr_pending: false, error: text });
    expect(await sessionRow(t, ws.workspaceId)).toEqual({ desired: 'stopped', linked: true, last_error: text });
    await sleep(500);
    expect(await status(t, ws)).toMatchObject({ connected: false, error: text });

    proxy = await Socks5Proxy.start({ auth: AUTH, port });
    const res = await chat(t, ws.owner, 'post', '/api/chat/connect');
    expect(res.status).toBe(200);
    await statusWhen(t, ws, 'connected again', (s) => s.connected === true);
    expect(counts.qrs).toBe(0);
    expect(proxy.tunnels()).toContain(new URL(sim.url).host);
  });
});
