import type { LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { guardedRequest } from '../../src/infra/net/guarded-http.js';
import { waMessageId } from '../../src/modules/chat/driver/wa-message-id.js';
import { type Resolve, useTestResolver } from '../../src/infra/net/guarded-lookup.js';
import { createInboundTestApp, eventually, type InboundTestApp, scanMessage } from '../chat/inbound-support.js';
import { randomPhone } from '../support/inbox-factories.js';
import { addWebhook, ownedWorkspace } from './webhook-support.js';

// Internet hosts cannot be served from a test: 127.0.0.2 stands in for a public address (the
// policy is told to treat it as one), while 127.0.0.1, on the same port, stays a refused loopback
// address. A fetch that resolved a second time would reach the decoy on 127.0.0.1.
const PUBLIC = '127.0.0.2';
const LOOPBACK = '127.0.0.1';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('pixels')]);

/** A resolver answering each name from a script: the n-th lookup gets the n-th answer (the last one repeats). */
class ScriptedResolver {
  readonly calls = new Map<string, number>();
  private readonly scripts = new Map<string, string[][]>();

  answer(name: string, ...answers: string[][]): void {
    this.scripts.set(name, answers);
  }

  callsFor(name: string): number {
    return this.calls.get(name) ?? 0;
  }

  readonly resolve: Resolve = (hostname, _options, callback) => {
    const n = this.callsFor(hostname);
    this.calls.set(hostname, n + 1);
    const script = this.scripts.get(hostname);
    if (!script) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    const answer = script[Math.min(n, script.length - 1)]!;
    // Asynchronous, as a real resolver.
    setImmediate(() =>
      callback(
        null,
        answer.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
      ),
    );
  };
}

/** What the stand-in "public" host got: path and Host header of every request. */
interface Hit {
  path: string;
  host: string | undefined;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer;
}

/**
 * An HTTP host on 127.0.0.2 and a decoy TCP listener on 127.0.0.1 with the same port: the decoy
 * records every connection it gets (and drops it).
 */
async function hosts(route: (path: string) => Answer) {
  const hits: Hit[] = [];
  const decoyConnections: string[] = [];
  for (let tries = 0; ; tries++) {
    const server: Server = createHttpServer((req, res) => {
      hits.push({ path: req.url ?? '', host: req.headers.host });
      const answer = route(req.url ?? '');
      // A new connection for every request: each one must resolve again, never reuse a checked socket.
      res.writeHead(answer.status, { Connection: 'close', ...answer.headers }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, PUBLIC, resolve));
    const port = (server.address() as AddressInfo).port;
    const decoy: TcpServer = createTcpServer((socket) => {
      decoyConnections.push(`${socket.remoteAddress}`);
      socket.destroy();
    });
    const bound = await new Promise<boolean>((resolve) => {
      decoy.once('error', () => resolve(false));
      decoy.listen(port, LOOPBACK, () => resolve(true));
    });
    if (bound) {
      const close = async (): Promise<void> => {
        await Promise.all([new Promise((resolve) => server.close(resolve)), new Promise((resolve) => decoy.close(resolve))]);
      };
      return { port, hits, decoyConnections, close };
    }
    await new Promise((resolve) => server.close(resolve));
    if (tries > 20) throw new Error(`no port free on both ${PUBLIC} and ${LOOPBACK}`);
  }
}

describe('DNS rebinding: an outbound fetch connects only to the address its one resolution checked', () => {
  let s: InboundTestApp;
  let resolver: ScriptedResolver;
  let net: Awaited<ReturnType<typeof hosts>>;
  const redirects: Record<string, string> = {};

  beforeAll(async () => {
    // http webhooks (the loopback hosts speak plain HTTP); private addresses refused for both uses.
    s = await createInboundTestApp({ ALLOW_HTTP_WEBHOOKS: 'true', WEBHOOK_RETRY_SCHEDULE: '100ms' });
    net = await hosts((path): Answer => {
      if (redirects[path]) return { status: 302, headers: { Location: redirects[path] } };
      if (path === '/logo.png') return { status: 200, headers: { 'Content-Type': 'image/png' }, body: PNG };
      if (path === '/hook') return { status: 503 };
      return { status: 404 };
    });
  });
  afterAll(async () => {
    useTestResolver(null);
    await net?.close();
    await s?.close();
  });
  afterEach(() => useTestResolver(null));

  const start = (): void => {
    resolver = new ScriptedResolver();
    useTestResolver(resolver.resolve, [PUBLIC]);
  };

  /** A scan conversation (made by an inbound message) on a connected socket, and its write key. */
  async function scanChat(): Promise<{ ws: string; key: string; id: string }> {
    const { workspace, key } = await s.t.factories.workspaceWithOwner();
    const jid = `${randomPhone()}@s.whatsapp.net`;
    await s.handler.handle(workspace.id, { type: 'messages', kind: 'notify', messages: [scanMessage({ chatJid: jid, senderJid: jid })] });
    const [row]: { id: string }[] = await s.t.dataSource.query('SELECT id FROM conversations WHERE workspace_id = $1', [workspace.id]);
    s.sessions.connected.add(workspace.id);
    return { ws: workspace.id, key, id: row!.id };
  }
  const sendImage = (chat: { key: string; id: string }, url: string) =>
    s.t.http().post(`/api/conversations/${chat.id}/messages`).set('Authorization', `Bearer ${chat.key}`).send({ type: 'image', media: { url } });

  it('media url: every redirect hop to a name that answers public, then loopback, resolves once and connects to the public answer', async () => {
    start();
    const names = ['hop1.rebind.test', 'hop2.rebind.test', 'hop3.rebind.test', 'hop4.rebind.test'];
    for (const name of names) resolver.answer(name, [PUBLIC], [LOOPBACK]);
    Object.assign(redirects, {
      '/a': `http://${names[1]}:${net.port}/b`,
      '/b': `http://${names[2]}:${net.port}/c`,
      '/c': `http://${names[3]}:${net.port}/logo.png`,
    });
    const chat = await scanChat();
    const hitsBefore = net.hits.length;
    const res = await sendImage(chat, `http://${names[0]}:${net.port}/a`);
    expect(res.status).toBe(201);
    // The bytes were fetched before the 201; the queue sends them on the number's turn.
    const sent = await eventually('the queued image sent', async () => {
      const calls = s.sessions.sends.filter((c) => c.workspaceId === chat.ws);
      return calls.length > 0 ? calls : null;
    });
    expect(sent.map((c) => c.outgoing)).toEqual([
      { type: 'image', data: PNG, mimeType: 'image/png', fileName: '', caption: '', messageId: waMessageId(res.body.id) },
    ]);
    // Each hop asked its name's Host, on the checked address, after exactly one lookup.
    expect(net.hits.slice(hitsBefore)).toEqual([
      { path: '/a', host: `${names[0]}:${net.port}` },
      { path: '/b', host: `${names[1]}:${net.port}` },
      { path: '/c', host: `${names[2]}:${net.port}` },
      { path: '/logo.png', host: `${names[3]}:${net.port}` },
    ]);
    expect(names.map((name) => resolver.callsFor(name))).toEqual([1, 1, 1, 1]);
    expect(net.decoyConnections).toEqual([]);
  });

  it('media url: a redirect back to the same name, which now answers loopback, is refused on that hop without connecting (400, nothing sent)', async () => {
    start();
    resolver.answer('same.rebind.test', [PUBLIC], [LOOPBACK]);
    redirects['/same-a'] = '/same-b';
    const chat = await scanChat();
    const hitsBefore = net.hits.length;
    const res = await sendImage(chat, `http://same.rebind.test:${net.port}/same-a`);
    expect([res.status, res.body]).toEqual([400, { error: 'media url points to a private or local address' }]);
    expect(net.hits.slice(hitsBefore)).toEqual([{ path: '/same-a', host: `same.rebind.test:${net.port}` }]);
    expect(resolver.callsFor('same.rebind.test')).toBe(2);
    expect(s.sessions.sends.filter((c) => c.workspaceId === chat.ws)).toEqual([]);
    expect(net.decoyConnections).toEqual([]);
  });

  it('webhook: checked at creation, delivered to the public answer, and the retry that resolves to loopback is refused without connecting', async () => {
    start();
    // Creation, first attempt, retry: one lookup each.
    resolver.answer('hook.rebind.test', [PUBLIC], [PUBLIC], [LOOPBACK]);
    const owned = await ownedWorkspace(s.t);
    await addWebhook(owned, `http://hook.rebind.test:${net.port}/hook`);
    const hitsBefore = net.hits.length;
    await s.handler.handle(owned.workspaceId, { type: 'messages', kind: 'notify', messages: [scanMessage()] });
    const attempts = await eventually('the first attempt and its refused retry', async () => {
      const rows: { status: string; response_status: number | null; error: string }[] = await s.t.dataSource.query(
        `SELECT status, response_status, error FROM webhook_attempts WHERE workspace_id = $1 ORDER BY attempt`,
        [owned.workspaceId],
      );
      return rows.length >= 2 ? rows : null;
    });
    expect(attempts).toEqual([
      { status: 'retrying', response_status: 503, error: 'HTTP 503' },
      { status: 'failed', response_status: null, error: 'refused: 127.0.0.1 is a loopback address' },
    ]);
    const [delivery]: { status: string; attempts: number }[] = await s.t.dataSource.query(
      `SELECT status, attempts FROM webhook_deliveries WHERE workspace_id = $1`,
      [owned.workspaceId],
    );
    expect(delivery).toEqual({ status: 'failed', attempts: 2 });
    expect(net.hits.slice(hitsBefore)).toEqual([{ path: '/hook', host: `hook.rebind.test:${net.port}` }]);
    expect(resolver.callsFor('hook.rebind.test')).toBe(3);
    expect(net.decoyConnections).toEqual([]);
  });
});

describe('guardedRequest with private addresses allowed: the name still resolves once, through the same resolver', () => {
  afterEach(() => useTestResolver(null));

  it('reaches the one address the resolver answered, with the URL host as Host header and (https) as TLS server name', async () => {
    const resolver = new ScriptedResolver();
    resolver.answer('named.test', [LOOPBACK]);
    useTestResolver(resolver.resolve);

    const seen: IncomingHttpHeaders[] = [];
    const plain = createHttpServer((req, res) => {
      seen.push(req.headers);
      res.end('hello');
    });
    await new Promise<void>((resolve) => plain.listen(0, LOOPBACK, resolve));
    const plainPort = (plain.address() as AddressInfo).port;
    // The simulator's test certificate (127.0.0.1 / localhost, from a CA nobody trusts here): the
    // server reads the name the client asks for in its hello, then the client refuses the certificate.
    const certs = join(process.cwd(), 'test/whatsapp-sim/certs');
    const serverNames: string[] = [];
    const secure = createTlsServer({
      key: readFileSync(join(certs, 'media-host-key.pem')),
      cert: readFileSync(join(certs, 'media-host.pem')),
      SNICallback: (name, done) => {
        serverNames.push(name);
        done(null, undefined);
      },
    });
    secure.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => secure.listen(0, LOOPBACK, resolve));
    const securePort = (secure.address() as AddressInfo).port;
    try {
      const answer = await guardedRequest({
        url: new URL(`http://named.test:${plainPort}/x`),
        method: 'GET',
        timeoutMs: 5000,
        allowPrivate: true,
        maxBodyBytes: 1024,
      });
      expect([answer.status, answer.body.toString()]).toEqual([200, 'hello']);
      expect(seen.map((headers) => headers.host)).toEqual([`named.test:${plainPort}`]);

      await expect(
        guardedRequest({ url: new URL(`https://named.test:${securePort}/x`), method: 'GET', timeoutMs: 5000, allowPrivate: true, maxBodyBytes: 1024 }),
      ).rejects.toMatchObject({
        code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      });
      expect(serverNames).toEqual(['named.test']);
      expect(resolver.callsFor('named.test')).toBe(2);

      // Without the setting the same answer is refused, and the keep-alive socket the allowed
      // request left open is not reused for it (one pool per policy): nothing reaches the server.
      seen.length = 0;
      await expect(
        guardedRequest({ url: new URL(`http://named.test:${plainPort}/x`), method: 'GET', timeoutMs: 5000, allowPrivate: false, maxBodyBytes: 1024 }),
      ).rejects.toMatchObject({
        message: 'named.test resolves to 127.0.0.1, a loopback address',
      });
      expect(seen).toEqual([]);
    } finally {
      await Promise.all([new Promise((resolve) => plain.close(resolve)), new Promise((resolve) => secure.close(resolve))]);
    }
  });
});
