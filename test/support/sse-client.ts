import type { AddressInfo } from 'node:net';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';

/** One dispatched Server-Sent Event (https://html.spec.whatwg.org/#parsing-an-event-stream). */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export interface SseClient {
  status: number;
  headers: IncomingHttpHeaders;
  /** Events in arrival order. */
  events: SseEvent[];
  /** Comment lines without the leading colon (e.g. ` keep-alive`). */
  comments: string[];
  retry: number | undefined;
  /** The whole body of a non-200 answer. */
  body: string;
  ended: boolean;
  /** Resolves once `condition` holds; rejects after `timeoutMs` naming `what` (a bound, not an assertion). */
  waitFor(what: string, condition: (client: SseClient) => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves once the server has ended the stream. */
  waitForEnd(timeoutMs?: number): Promise<void>;
  close(): void;
}

/** The app's base URL; the HTTP server is started on a free port if it is not listening yet. */
export async function listenUrl(app: INestApplication): Promise<string> {
  const server = app.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A minimal EventSource over node:http: resolves once the response headers arrive, then parses
 * the stream as it comes. No automatic reconnect: tests reconnect explicitly with Last-Event-ID.
 */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const waiters = new Set<() => void>();
    const notify = (): void => waiters.forEach((w) => w());
    let buffer = '';
    let pending: { id?: string; event?: string; data: string[] } = { data: [] };
    let lastId: string | undefined;

    const req = request(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8');
      const client: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        comments: [],
        retry: undefined,
        body: '',
        ended: false,
        waitFor: (what, condition, timeoutMs = 10_000) =>
          new Promise<void>((done, fail) => {
            if (condition(client)) return done();
            if (client.ended) return fail(new Error(`stream ended (status ${client.status}) before ${what}`));
            const check = (): void => {
              if (condition(client)) finish();
              else if (client.ended) finish(new Error(`stream ended while waiting for ${what}`));
            };
            const timer = setTimeout(() => finish(new Error(`timed out waiting for ${what}`)), timeoutMs);
            const finish = (error?: Error): void => {
              clearTimeout(timer);
              waiters.delete(check);
              if (error) fail(error);
              else done();
            };
            waiters.add(check);
          }),
        waitForEnd: (timeoutMs) => client.waitFor('the end of the stream', (c) => c.ended, timeoutMs),
        close: () => req.destroy(),
      };

      const line = (text: string): void => {
        if (text === '') {
          if (pending.data.length > 0) {
            if (pending.id !== undefined) lastId = pending.id;
            client.events.push({ id: lastId, event: pending.event ?? 'message', data: pending.data.join('\n') });
          }
          pending = { data: [] };
          return;
        }
        if (text.startsWith(':')) {
          client.comments.push(text.slice(1));
          return;
        }
        const colon = text.indexOf(':');
        const field = colon < 0 ? text : text.slice(0, colon);
        const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') pending.id = value;
        else if (field === 'event') pending.event = value;
        else if (field === 'data') pending.data.push(value);
        else if (field === 'retry' && /^\d+$/.test(value)) client.retry = Number(value);
      };

      res.on('data', (chunk: string) => {
        if (client.status !== 200) {
          client.body += chunk;
          return;
        }
        buffer += chunk;
        const lines = buffer.split(/\r\n|\r|\n/);
        buffer = lines.pop() ?? '';
        lines.forEach(line);
        notify();
      });
      const end = (): void => {
        client.ended = true;
        notify();
      };
      res.on('end', end);
      res.on('close', end);
      res.on('error', end);
      if (client.status === 200) resolve(client);
      else res.on('end', () => resolve(client));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The parsed `data:` of an event. */
export function dataOf<T = Record<string, unknown>>(event: SseEvent): T {
  return JSON.parse(event.data) as T;
}

/** The id of an event that must have been kept (someone watches its workspace); fails the test otherwise. */
export async function kept(id: Promise<string | undefined>): Promise<string> {
  const value = await id;
  if (value === undefined) throw new Error('the event was dropped: nobody watches its workspace');
  return value;
}
