import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeGraphError } from './graph-errors.js';
import { answer, fail, type FormFile, type GraphAnswer, type GraphRequest } from './graph-routes.js';
import { GraphWorld } from './graph-world.js';

/** Which requests a failure rule applies to: method and/or path (without the version). */
export interface RequestMatch {
  method?: string;
  path?: string | RegExp;
}

interface FailureRule {
  match: RequestMatch;
  /** `drop`: the connection is closed without an answer (a provider that cannot be reached). */
  answer: GraphAnswer | 'drop';
  remaining: number;
}

export interface FakeGraphApiOptions {
  /** The version the service must name (`META_GRAPH_VERSION`); requests naming another get 400. Default `v23.0`. */
  version?: string;
  /** When set, the code exchange checks `client_id` and `client_secret` against these. */
  appId?: string;
  appSecret?: string;
}

const matches = (match: RequestMatch, req: GraphRequest): boolean =>
  (!match.method || match.method.toUpperCase() === req.method) &&
  (match.path === undefined || (typeof match.path === 'string' ? match.path === req.path : match.path.test(req.path)));

/**
 * A Graph API on loopback for tests: a real HTTP server on 127.0.0.1 and a random port, which
 * records every request and answers in the provider's shapes, its error objects included. Tests
 * describe the provider's side in `world` (numbers, tokens, signup codes, media, templates) and
 * make calls fail with `failNext`. Point the service at it with `META_GRAPH_URL: fake.url`.
 * docs/cloud-channel.md, "Testing with the fake Graph API", shows the whole API.
 */
export class FakeGraphApi {
  readonly world = new GraphWorld();
  readonly requests: GraphRequest[] = [];
  private readonly failures: FailureRule[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly version: string,
    private readonly app: { id?: string; secret?: string },
  ) {}

  static async start(options: FakeGraphApiOptions = {}): Promise<FakeGraphApi> {
    let fake: FakeGraphApi | undefined;
    const server = createServer((req, res) => void fake!.serve(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeGraphApi(server, `http://127.0.0.1:${port}`, options.version ?? 'v23.0', { id: options.appId, secret: options.appSecret });
    return fake;
  }

  /** The next `times` requests matching `match` get `error` (the provider's error object) instead of their answer. */
  failNext(match: RequestMatch, error: FakeGraphError, times = 1): void {
    this.failures.push({ match, answer: fail(error), remaining: times });
  }

  /** Like `failNext`, with any status and body (a proxy's HTML page, an empty 502). */
  answerNext(match: RequestMatch, status: number, body: string, times = 1): void {
    this.failures.push({ match, answer: { status, bytes: Buffer.from(body), contentType: 'text/html' }, remaining: times });
  }

  /** The next `times` requests matching `match` get no answer: the connection is closed (the provider cannot be reached). */
  dropNext(match: RequestMatch, times = 1): void {
    this.failures.push({ match, answer: 'drop', remaining: times });
  }

  /** Requests matching `match`, oldest first. */
  received(match: RequestMatch = {}): GraphRequest[] {
    return this.requests.filter((req) => matches(match, req));
  }

  /** Message sends to a number (`POST /{id}/messages` without the read receipts), their JSON bodies. */
  sent(phoneNumberId: string): Record<string, unknown>[] {
    return this.received({ method: 'POST', path: `/${phoneNumberId}/messages` })
      .map((req) => req.json as Record<string, unknown>)
      .filter((body) => body?.status !== 'read');
  }

  /** Waits until a request matching `match` arrived (within `timeoutMs`), and answers it. */
  async waitFor(match: RequestMatch, timeoutMs = 5000): Promise<GraphRequest> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received(match)[0];
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${match.method ?? ''} ${String(match.path ?? '')} request reached the fake Graph API in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.add(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  /** Forgets the recorded requests and pending failures (the world stays). */
  reset(): void {
    this.requests.length = 0;
    this.failures.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await this.read(req);
    this.requests.push(request);
    for (const wake of this.waiters) wake();
    this.waiters.clear();
    const rule = this.failures.find((f) => f.remaining > 0 && matches(f.match, request));
    let reply: GraphAnswer;
    if (rule) {
      rule.remaining--;
      if (rule.answer === 'drop') return void req.socket.destroy();
      reply = rule.answer;
    } else if (request.version !== '' && request.version !== this.version) {
      reply = fail({ code: 2635, message: `(#2635) You are calling a deprecated version of the Graph API (${request.version}).` });
    } else {
      reply = answer(this.world, request, (id) => `${this.url}/__media/${id}`, this.app);
    }
    const body = reply.bytes ?? Buffer.from(JSON.stringify(reply.json ?? {}));
    res.writeHead(reply.status, {
      'Content-Type': reply.bytes ? (reply.contentType ?? 'application/octet-stream') : 'application/json',
      'Content-Length': body.length,
    });
    res.end(body);
  }

  private async read(req: IncomingMessage): Promise<GraphRequest> {
    const at = Date.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', this.url);
    const versioned = /^\/(v\d+\.\d+)(\/.*)?$/.exec(url.pathname);
    const auth = req.headers.authorization;
    const type = req.headers['content-type'] ?? '';
    let json: unknown;
    if (type.startsWith('application/json')) {
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        json = undefined;
      }
    }
    return {
      method: req.method ?? 'GET',
      path: versioned ? (versioned[2] ?? '/') : url.pathname,
      version: versioned ? versioned[1]! : '',
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      token: auth?.startsWith('Bearer ') ? auth.slice(7) : null,
      body,
      json,
      form: type.startsWith('multipart/form-data') ? await parseForm(body, type) : null,
      at,
    };
  }
}

/** A multipart body's fields, parsed by the platform's own `Request`. */
async function parseForm(body: Buffer, contentType: string): Promise<Record<string, string | FormFile>> {
  const form = await new Request('http://fake.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
  const fields: Record<string, string | FormFile> = {};
  for (const [name, value] of form.entries()) {
    fields[name] = typeof value === 'string' ? value : { fileName: value.name, type: value.type, data: Buffer.from(await value.arrayBuffer()) };
  }
  return fields;
}
