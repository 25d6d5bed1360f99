import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { checkHostName, guardedLookup, openLookup } from './guarded-lookup.js';

export interface GuardedRequest {
  url: URL;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer;
  /** For the whole exchange: connect, send, response head and body. */
  timeoutMs: number;
  /** Skip the address policy (the operator allowed private addresses for this use). */
  allowPrivate: boolean;
  /** Largest response body read. */
  maxBodyBytes: number;
  /** Past `maxBodyBytes`: keep the first bytes and drop the connection (true), or fail (false). */
  truncateBody?: boolean;
  /**
   * Settle with the status line and headers, an empty body, as soon as they arrive: for callers
   * that ignore the body. It is still read and dropped (up to `maxBodyBytes`, for at most a
   * second), so a finished answer leaves its connection reusable and an endless one is cut.
   */
  headOnly?: boolean;
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const HEAD_ONLY_BODY_GRACE_MS = 1000;

export class RequestTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(ms: number) {
    super(`no complete answer within ${ms} ms`);
    this.name = 'RequestTimeoutError';
  }
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`response body larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

// Keep-alive pools, one per policy, so a socket opened while private addresses were allowed is
// never reused by a request that must not reach them. A pooled socket stays connected to the
// address that was checked when it was opened: reusing it resolves nothing.
const agents = {
  guarded: { http: new http.Agent({ keepAlive: true, scheduling: 'lifo' }), https: new https.Agent({ keepAlive: true, scheduling: 'lifo' }) },
  open: { http: new http.Agent({ keepAlive: true, scheduling: 'lifo' }), https: new https.Agent({ keepAlive: true, scheduling: 'lifo' }) },
};

/**
 * One HTTP(S) request to an address the caller does not control: public addresses only (unless
 * `allowPrivate`), checked on the address actually connected to (see `guardedLookup`: one
 * resolution per new connection, the socket connects to exactly the checked addresses, while the
 * Host header and the TLS server name stay the URL's host), redirects never followed (a 3xx is
 * returned as it is: a caller following it makes a new request, checked again), a deadline for
 * the whole exchange and a bounded response body. Rejects with `AddressRefusedError`,
 * `RequestTimeoutError`, `BodyTooLargeError` or the socket's error (`ENOTFOUND` for a name that
 * does not resolve).
 */
export async function guardedRequest(request: GuardedRequest): Promise<GuardedResponse> {
  const { url } = request;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported protocol ${url.protocol}`);
  // IP literals never go through a lookup: checked here. Names are checked by the lookup, on the
  // addresses the socket then connects to (a pooled socket was checked when it connected).
  if (!request.allowPrivate) checkHostName(url.hostname);
  const pool = request.allowPrivate ? agents.open : agents.guarded;
  const secure = url.protocol === 'https:';
  const send = secure ? https.request : http.request;
  return new Promise<GuardedResponse>((resolve, reject) => {
    const req = send(url, {
      method: request.method,
      headers: { ...request.headers, ...(request.body ? { 'Content-Length': String(request.body.length) } : {}) },
      agent: secure ? pool.https : pool.http,
      lookup: request.allowPrivate ? openLookup : guardedLookup,
    });
    // Settle first, then tear down: errors the teardown raises find the promise settled.
    const fail = (error: Error): void => {
      clearTimeout(timer);
      reject(error);
      req.destroy();
    };
    let timer = setTimeout(() => fail(new RequestTimeoutError(request.timeoutMs)), request.timeoutMs);
    req.once('error', fail);
    req.once('response', (res) => {
      if (request.headOnly) {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0) });
        // The caller is done: a body still coming after a second is cut (no socket held for long).
        clearTimeout(timer);
        timer = setTimeout(() => req.destroy(), HEAD_ONLY_BODY_GRACE_MS);
      }
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > request.maxBodyBytes && !request.truncateBody) return fail(new BodyTooLargeError(request.maxBodyBytes));
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (): void => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      };
      res.on('data', (chunk: Buffer) => {
        if (size + chunk.length > request.maxBodyBytes) {
          if (!request.truncateBody) return fail(new BodyTooLargeError(request.maxBodyBytes));
          chunks.push(chunk.subarray(0, request.maxBodyBytes - size));
          size = request.maxBodyBytes;
          res.removeAllListeners('data');
          req.destroy();
          return done();
        }
        size += chunk.length;
        chunks.push(chunk);
      });
      res.once('end', done);
      res.once('error', fail);
    });
    req.end(request.body);
  });
}
