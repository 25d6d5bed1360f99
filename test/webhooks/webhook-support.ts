import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { TestApp } from '../support/test-app.js';
import { createInboundTestApp, eventually, type InboundTestApp } from '../chat/inbound-support.js';

export { eventually };

/** The service's settings for the webhook tests over the simulator: loopback receivers, quick retries and sweeps. */
export const WEBHOOK_ENV = {
  ALLOW_HTTP_WEBHOOKS: 'true',
  ALLOW_PRIVATE_WEBHOOKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,300ms',
  WEBHOOK_SWEEP_INTERVAL_MS: '500',
};

/** One request a receiver got: the raw bytes exactly as they arrived. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

/**
 * What the receiver does with a request: answer, never answer, or drop the connection. `endless`:
 * send the status line, headers and `body`, then never end the answer.
 */
export type Reply = { status: number; headers?: Record<string, string>; body?: string; endless?: boolean } | 'hang' | 'destroy';

/**
 * A webhook endpoint on loopback, speaking plain HTTP/1.1 (node:http): records every request and
 * answers what `reply` says (200 by default). `hang` holds the request open (a dead endpoint).
 */
export class Receiver {
  readonly received: Received[] = [];
  reply: (request: Received, index: number) => Reply = () => ({ status: 200 });
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** On a free port, or on `port` (a receiver coming back after being down). */
  static async start(port = 0): Promise<Receiver> {
    let receiver: Receiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () =>
        receiver!.handle({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), at: Date.now() }, res),
      );
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    receiver = new Receiver(server, (server.address() as AddressInfo).port);
    return receiver;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests to `path` (every path when omitted). */
  at(path?: string): Received[] {
    return path === undefined ? this.received : this.received.filter((r) => r.path === path);
  }

  async waitFor(count: number, path?: string, timeoutMs = 15_000): Promise<Received[]> {
    return eventually(`${count} request(s) to ${path ?? 'the receiver'}`, async () => (this.at(path).length >= count ? this.at(path) : null), timeoutMs);
  }

  /** Drops every open connection (ends the requests a `hang` reply holds). */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.dropConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(request: Received, res: ServerResponse): void {
    this.received.push(request);
    const reply = this.reply(request, this.received.length - 1);
    if (reply === 'hang') return;
    if (reply === 'destroy') return void res.socket?.destroy();
    res.writeHead(reply.status, { 'Content-Type': 'text/plain', ...reply.headers });
    if (reply.endless) res.write(reply.body ?? '');
    else res.end(reply.body ?? '');
  }
}

/**
 * The app as the webhook tests run it: loopback endpoints allowed (http, private addresses),
 * retries within milliseconds, a quick sweeper; the scan channel's inbound side with a media
 * driver the test feeds.
 */
export async function createWebhookTestApp(env: Record<string, string> = {}): Promise<InboundTestApp> {
  return createInboundTestApp({
    ALLOW_HTTP_WEBHOOKS: 'true',
    ALLOW_PRIVATE_WEBHOOKS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,300ms',
    WEBHOOK_SWEEP_INTERVAL_MS: '500',
    ...env,
  });
}

export interface Owned {
  workspaceId: string;
  cookie: string;
  /** A request as the workspace's owner in the Console. */
  as: (method: 'get' | 'post' | 'patch' | 'delete', path: string) => ReturnType<ReturnType<TestApp['http']>['get']>;
}

/** A workspace with a signed-in owner, and a helper for Console requests. */
export async function ownedWorkspace(t: TestApp): Promise<Owned> {
  const { workspace, owner } = await t.factories.workspaceWithOwner();
  return {
    workspaceId: workspace.id,
    cookie: owner.cookie,
    as: (method, path) => t.http()[method](path).set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id),
  };
}

/** Adds a webhook through the API (201 expected); returns its id. */
export async function addWebhook(owned: Owned, url: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await owned.as('post', '/api/webhooks').send({ url, ...body });
  if (res.status !== 201) throw new Error(`creating the webhook answered ${res.status}: ${JSON.stringify(res.body)}`);
  return (res.body as { id: string }).id;
}

export async function secretOf(owned: Owned): Promise<string> {
  return ((await owned.as('get', '/api/webhooks/secret')).body as { secret: string }).secret;
}

/** The delivery log of a webhook through the API. */
export async function logOf(owned: Owned, webhookId: string): Promise<Record<string, unknown>[]> {
  return (await owned.as('get', `/api/webhooks/${webhookId}/deliveries`)).body as Record<string, unknown>[];
}

export const json = (request: Received): Record<string, unknown> => JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;

/** How many webhook deliveries are left after `statement` (a TRUNCATE) runs, in a transaction rolled back. */
export async function deliveriesLeftAfter(t: TestApp, statement: string): Promise<number> {
  const runner = t.dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    await runner.query(statement);
    const [row] = (await runner.query('SELECT count(*)::int AS n FROM webhook_deliveries')) as { n: number }[];
    return row!.n;
  } finally {
    await runner.rollbackTransaction();
    await runner.release();
  }
}
