import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { SocksClient } from 'socks';
import type { ProxyEndpoint } from './proxy-url.js';

/** How long a proxy may take to open a tunnel (connect, authenticate, reach the target). */
export const PROXY_CONNECT_TIMEOUT_MS = 10_000;

/**
 * A tunnel through the egress proxy could not be opened: the proxy is down, refused, asked for
 * other credentials, or could not reach the target. The message says which, naming the proxy by
 * its masked URL (never its password). `proxyFailure` marks it for whoever only sees it wrapped
 * (Baileys hands a WebSocket error on as the `data` of its own error).
 */
export class ProxyError extends Error {
  readonly code = 'EPROXY';
  readonly proxyFailure = true;

  constructor(message: string) {
    super(message);
    this.name = 'ProxyError';
  }
}

/** Whether `error` (or the error Baileys wrapped it in, as `data`) is a `ProxyError`; its text if so. */
export function proxyFailureOf(error: unknown): string | null {
  for (let candidate = error, depth = 0; candidate && depth < 3; depth++) {
    const marked = candidate as { proxyFailure?: unknown; message?: unknown; data?: unknown; cause?: unknown };
    if (marked.proxyFailure === true && typeof marked.message === 'string') return marked.message;
    candidate = marked.data ?? marked.cause;
  }
  return null;
}

export interface TunnelTarget {
  host: string;
  port: number;
}

const authority = ({ host, port }: TunnelTarget): string => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Why a connection to the proxy itself failed, as an operator reads it. */
function connectFailure(proxy: ProxyEndpoint, error: NodeJS.ErrnoException): ProxyError {
  const name = `the proxy ${proxy.masked}`;
  if (error.code === 'ECONNREFUSED') return new ProxyError(`${name} refused the connection (${error.message})`);
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return new ProxyError(`${name} could not be resolved (${error.message})`);
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return new ProxyError(`${name} closed the connection (${error.message})`);
  return new ProxyError(`${name} could not be reached (${error.message})`);
}

const timedOut = (proxy: ProxyEndpoint): ProxyError => new ProxyError(`the proxy ${proxy.masked} did not answer within ${PROXY_CONNECT_TIMEOUT_MS / 1000} s`);

/** HTTP CONNECT (over TLS to the proxy for `https://`), with Basic credentials when the URL has some. */
function httpTunnel(proxy: ProxyEndpoint, target: TunnelTarget, timeoutMs: number): Promise<Socket> {
  const path = authority(target);
  const headers: Record<string, string> = { host: path };
  if (proxy.username || proxy.password) {
    headers['proxy-authorization'] = `Basic ${Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64')}`;
  }
  const request = proxy.protocol === 'https' ? httpsRequest : httpRequest;
  return new Promise<Socket>((resolve, reject) => {
    // SNI only for a name (RFC 6066); an https:// proxy's certificate is checked against the system's CAs.
    const tls = proxy.protocol === 'https' && !isIP(proxy.host) ? { servername: proxy.host } : {};
    const req = request({ host: proxy.host, port: proxy.port, method: 'CONNECT', path, headers, agent: false, ...tls });
    const timer = setTimeout(() => {
      req.destroy();
      reject(timedOut(proxy));
    }, timeoutMs);
    req.once('connect', (res: IncomingMessage, socket: Socket, head: Buffer) => {
      clearTimeout(timer);
      if (res.statusCode === 200) {
        // Bytes the target sent right after the proxy's answer belong to the tunnel.
        if (head.length > 0) socket.unshift(head);
        return resolve(socket);
      }
      socket.destroy();
      const status = `${res.statusCode} ${res.statusMessage ?? ''}`.trim();
      if (res.statusCode === 407) {
        const given = proxy.username || proxy.password;
        return reject(new ProxyError(`the proxy ${proxy.masked} ${given ? 'refused the credentials' : 'asks for credentials'} (${status})`));
      }
      reject(new ProxyError(`the proxy ${proxy.masked} could not connect to ${path} (${status})`));
    });
    req.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(connectFailure(proxy, error));
    });
    req.end();
  });
}

// The `socks` package's texts for what the proxy answered (its constants ERRORS).
const SOCKS_AUTH_FAILED = 'Socks5 Authentication failed';
const SOCKS_NO_AUTH_TYPE = 'no accepted authentication type';
const SOCKS_REJECTED = 'Socks5 proxy rejected connection - ';
const SOCKS_TIMED_OUT = 'Proxy connection timed out';

/** SOCKS5 CONNECT, with username/password authentication (RFC 1929) when the URL has credentials. */
async function socksTunnel(proxy: ProxyEndpoint, target: TunnelTarget, timeoutMs: number): Promise<Socket> {
  const credentials = proxy.username || proxy.password ? { userId: proxy.username, password: proxy.password } : {};
  try {
    const { socket } = await SocksClient.createConnection({
      proxy: { host: proxy.host, port: proxy.port, type: 5, ...credentials },
      command: 'connect',
      destination: { host: target.host, port: target.port },
      timeout: timeoutMs,
    });
    return socket;
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    // A failure of the connection to the proxy itself comes as the socket's text (`connect ECONNREFUSED …`).
    const code = /\b(E[A-Z_]{3,})\b/.exec(text)?.[1];
    if (code) throw connectFailure(proxy, Object.assign(new Error(text), { code }));
    if (text === SOCKS_TIMED_OUT) throw timedOut(proxy);
    if (text === SOCKS_AUTH_FAILED) throw new ProxyError(`the proxy ${proxy.masked} refused the credentials (SOCKS5 authentication failed)`);
    if (text.includes(SOCKS_NO_AUTH_TYPE)) {
      throw new ProxyError(
        `the proxy ${proxy.masked} ${credentials.userId === undefined ? 'asks for credentials' : 'takes no user name and password'} (SOCKS5)`,
      );
    }
    if (text.startsWith(SOCKS_REJECTED)) {
      throw new ProxyError(`the proxy ${proxy.masked} could not connect to ${authority(target)} (SOCKS5 reply: ${text.slice(SOCKS_REJECTED.length)})`);
    }
    throw new ProxyError(`the proxy ${proxy.masked} failed: ${text}`);
  }
}

/**
 * A TCP stream to `target` through `proxy`, ready for TLS or plain bytes. Rejects with a
 * `ProxyError` whose text names the proxy (masked) and what went wrong; within `timeoutMs`.
 */
export function openTunnel(proxy: ProxyEndpoint, target: TunnelTarget, timeoutMs = PROXY_CONNECT_TIMEOUT_MS): Promise<Socket> {
  return proxy.protocol === 'socks5' ? socksTunnel(proxy, target, timeoutMs) : httpTunnel(proxy, target, timeoutMs);
}
