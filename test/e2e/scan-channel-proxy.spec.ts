import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { useTestResolver } from '../../src/infra/net/guarded-lookup.js';
import { HttpConnectProxy, Socks5Proxy } from '../fakes/proxy/index.js';
import { fixedResolver } from '../support/fixed-resolver.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { api, createE2eApp, eventually, link, messageWhen, newWorkspace, sentMessage, type E2eWorkspace, type Json } from './e2e-support.js';
import { getProxy, hostPort, putProxy } from './proxy-support.js';

/**
 * Issue 37: a number's egress proxy. The real Baileys driver on the simulator, through a loopback
 * HTTP CONNECT proxy (set per number, PUT /api/chat/proxy) and a SOCKS5 proxy (the default for all
 * numbers, WA_PROXY_URL): the proxies log every connection they are asked for, so the test sees
 * the WebSocket, the media downloads and the uploads go through them, with their credentials.
 */
jest.setTimeout(90_000);

const AUTH = { username: 'egress', password: 'p@ss word' };
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(4000)]);
const withMedia = (m: Json): boolean => typeof m.media_url === 'string' && m.media_url !== '';

/** Inbound media downloaded, and an image sent from the inbox that the contact decrypts. */
async function mediaBothWays(t: TestApp, sim: WhatsAppSimulator, ws: E2eWorkspace, phone: string, from: string): Promise<void> {
  const inbound = await sim.deliverMedia({ to: phone, from, name: 'Ines', kind: 'image', mimetype: 'image/png', caption: 'via proxy', data: PNG });
  const stored = await messageWhen(t, ws, inbound, withMedia);
  const file = await t.http().get(String(stored.media_url)).set('Authorization', `Bearer ${ws.key}`).buffer(true);
  expect(file.status).toBe(200);

  const sent = await api(t, ws, 'post', `/api/conversations/${String(stored.conversation_id)}/messages`, {
    type: 'image',
    media: { data_base64: PNG.toString('base64'), mime_type: 'image/png' },
    caption: 'back through the proxy',
  });
  expect(sent.status).toBe(201);
  const queued = await sentMessage(t, ws, String(stored.conversation_id), String((sent.body as Json).id));
  expect(queued).toMatchObject({ status: 'sent' });
  const delivered = await sim.waitForSent((m) => m.id === queued.chat_message_id);
  expect(delivered.media?.data.equals(PNG)).toBe(true);
}

describe('scan channel end to end: a number behind its own HTTP CONNECT proxy', () => {
  const PHONE = '15550100371';
  let sim: WhatsAppSimulator;
  let proxy: HttpConnectProxy;
  let t: TestApp;
  let ws: E2eWorkspace;
  let mediaDir: string;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    proxy = await HttpConnectProxy.start({ auth: AUTH });
    mediaDir = await mkdtemp(join(tmpdir(), 'e2e-proxy-'));
    t = await createE2eApp(sim, { env: { MEDIA_DIR: mediaDir } });
    ws = await newWorkspace(t);
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.stop();
    await sim?.stop();
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
  });

  it('answers the proxy masked, links through it, and carries the socket, inbound media and uploads', async () => {
    expect((await getProxy(t, ws)).body).toEqual({ url: null, source: 'none' });
    const res = await putProxy(t, ws, proxy.url());
    expect(res.status).toBe(200);
    const masked = `http://egress:***@127.0.0.1:${proxy.port}`;
    expect(res.body).toEqual({ url: masked, source: 'number' });
    expect((await getProxy(t, ws)).body).toEqual({ url: masked, source: 'number' });
    // Sealed at rest: neither the password nor the proxy's address is readable in the row.
    const [row] = (await t.dataSource.query('SELECT sealed_url FROM scan_proxies WHERE workspace_id = $1', [ws.workspaceId])) as { sealed_url: string }[];
    expect(row!.sealed_url).toMatch(/^v1\./);
    expect(row!.sealed_url).not.toContain(String(proxy.port));

    await link(t, sim, ws, PHONE);
    // The QR socket, and the one that logs in after pairing (515): both tunnelled, with the credentials.
    const socketTunnels = proxy.connections.filter((c) => c.target === hostPort(sim.url));
    expect(socketTunnels.length).toBeGreaterThanOrEqual(2);
    expect(socketTunnels.every((c) => c.outcome === 'tunnel' && c.user === AUTH.username)).toBe(true);

    const mediaTunnelsBefore = proxy.tunnels().filter((target) => target === sim.media.hostname).length;
    const downloadsBefore = sim.media.downloads;
    await mediaBothWays(t, sim, ws, PHONE, '4915100537101');
    // The download of the inbound image and the upload of the sent one (at least one connection each).
    expect(sim.media.downloads).toBeGreaterThan(downloadsBefore);
    expect(proxy.tunnels().filter((target) => target === sim.media.hostname).length).toBeGreaterThanOrEqual(mediaTunnelsBefore + 2);
    // Nothing of the number went around the proxy: every connection it asked for went through.
    expect(proxy.connections.every((c) => c.outcome === 'tunnel')).toBe(true);
  });
});

describe('scan channel end to end: WA_PROXY_URL, a SOCKS5 proxy for every number, with the address policy on', () => {
  const PHONE = '15550100372';
  // The simulator's loopback address stands in for WhatsApp's public media hosts; 127.0.0.3 is the
  // service's own network, which a contact's message names by a host name.
  const NAMES: Record<string, string[]> = { 'mmg.attacker.test': ['127.0.0.3'] };
  let sim: WhatsAppSimulator;
  let proxy: Socks5Proxy;
  let t: TestApp;
  let ws: E2eWorkspace;
  let mediaDir: string;

  beforeAll(async () => {
    useTestResolver(fixedResolver(NAMES), ['127.0.0.1']);
    sim = await WhatsAppSimulator.start();
    proxy = await Socks5Proxy.start({ auth: AUTH });
    mediaDir = await mkdtemp(join(tmpdir(), 'e2e-proxy-'));
    t = await createE2eApp(sim, { env: { MEDIA_DIR: mediaDir, WA_PROXY_URL: proxy.url(), ALLOW_PRIVATE_MEDIA_URLS: 'false' } });
    ws = await newWorkspace(t);
  });
  afterAll(async () => {
    useTestResolver(null);
    await t?.close();
    await proxy?.stop();
    await sim?.stop();
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
  });

  it('shows the default masked, links through it, and carries the socket, inbound media and uploads', async () => {
    expect((await getProxy(t, ws)).body).toEqual({ url: `socks5://egress:***@127.0.0.1:${proxy.port}`, source: 'default' });
    await link(t, sim, ws, PHONE);
    expect(proxy.connections.filter((c) => c.target === hostPort(sim.url) && c.user === AUTH.username).length).toBeGreaterThanOrEqual(2);

    const before = proxy.tunnels().filter((target) => target === sim.media.hostname).length;
    await mediaBothWays(t, sim, ws, PHONE, '4915100537201');
    expect(proxy.tunnels().filter((target) => target === sim.media.hostname).length).toBeGreaterThanOrEqual(before + 2);
  });

  it('keeps the address policy on media hosts: a name resolving to a private address is refused before the proxy is asked', async () => {
    const seen = proxy.connections.length;
    const id = await sim.deliverMedia({
      to: PHONE,
      from: '4915100537202',
      kind: 'image',
      mimetype: 'image/png',
      caption: 'internal',
      at: { url: 'https://mmg.attacker.test:8443/admin', directPath: null },
    });
    const stored = await messageWhen(t, ws, id);
    expect(stored).toMatchObject({ message_type: 'image', media_url: '' });
    await eventually('the download given up', async () => {
      const rows: unknown[] = await t.dataSource.query('SELECT 1 FROM scan_media_refs WHERE workspace_id = $1', [ws.workspaceId]);
      return rows.length === 0;
    });
    expect(proxy.connections.slice(seen).filter((c) => c.target.includes('127.0.0.3') || c.target.includes('attacker'))).toEqual([]);
  });
});
