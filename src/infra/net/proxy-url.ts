import { isIPv4, isIPv6 } from 'node:net';

/** The kinds of egress proxy the service speaks: HTTP CONNECT (plain or over TLS) and SOCKS5. */
export const PROXY_PROTOCOLS = ['http', 'https', 'socks5'] as const;
export type ProxyProtocol = (typeof PROXY_PROTOCOLS)[number];

const DEFAULT_PORTS: Record<ProxyProtocol, number> = { http: 80, https: 443, socks5: 1080 };

/** What stands for a proxy's credential wherever its URL is shown. */
export const PROXY_MASK = '***';

/** A checked proxy URL, and everything a connection through it needs. */
export interface ProxyEndpoint {
  protocol: ProxyProtocol;
  /** Host name (lower case) or IP address, IPv6 without brackets. */
  host: string;
  port: number;
  /** Decoded credentials; both empty when the proxy takes none. */
  username: string;
  password: string;
  /** The URL in one canonical spelling, credentials included (what is stored, sealed). */
  href: string;
  /** The URL as it may be shown: the credential replaced by `***` (see `maskProxyUrl`). */
  masked: string;
}

export const PROXY_URL_EXAMPLE = 'socks5://user:password@proxy.example.com:1080';
export const PROXY_URL_INVALID = `url must be a proxy URL: http://, https:// or socks5://, then [user:password@]host[:port], e.g. ${PROXY_URL_EXAMPLE}`;
export const PROXY_URL_SCHEME = 'url must start with http://, https:// or socks5://';
export const PROXY_URL_EXTRA = "url must be the proxy's address only ([user:password@]host[:port]): no path, query or fragment";
export const PROXY_URL_PORT = 'url has an invalid port: 1-65535';
export const PROXY_URL_HOST = 'url must name the proxy host: a host name, an IPv4 address or an [IPv6] address';
export const PROXY_URL_CREDENTIALS = 'url has a user name or password that is not valid percent-encoding';
export const PROXY_URL_SOCKS_CREDENTIALS = 'a socks5:// user name and password are at most 255 bytes each';
export const PROXY_URL_MASKED = `url has ${PROXY_MASK} in place of a credential: give the real one`;
/** The pattern the OpenAPI document states for a proxy URL (the service checks the rest). */
export const PROXY_URL_PATTERN = '^(?:[hH][tT][tT][pP][sS]?|[sS][oO][cC][kK][sS]5)://\\S+$';

/** A proxy URL the service cannot use; its message is the 400's text. */
export class ProxyUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProxyUrlError';
  }
}

const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

function checkedHost(raw: string): string {
  const host = raw.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']') && isIPv6(host.slice(1, -1))) return host.slice(1, -1);
  if (isIPv4(host)) return host;
  const labels = host.replace(/\.$/, '').split('.');
  // A dotted number that is no IPv4 address (`1.2.3`, `2130706433`) is neither a name nor an address.
  if (host.length === 0 || host.length > 253 || !labels.every((label) => LABEL.test(label)) || /^\d+$/.test(labels.at(-1)!)) {
    throw new ProxyUrlError(PROXY_URL_HOST);
  }
  return host;
}

/** The authority's port is there but out of range or not a number (what makes most URLs unparsable). */
function badPort(rest: string): boolean {
  const hostPort = rest.split(/[/?#]/)[0]!.split('@').at(-1)!;
  const port = /\]?:([^:\]]*)$/.exec(hostPort)?.[1];
  return port !== undefined && port !== '' && (!/^\d+$/.test(port) || Number(port) > 65_535);
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new ProxyUrlError(PROXY_URL_CREDENTIALS);
  }
}

/**
 * Checks an egress proxy URL (`PUT /api/chat/proxy`, `WA_PROXY_URL`): `http://`, `https://` or
 * `socks5://` (any case), a host, an optional port (default 80, 443, 1080) and optional
 * `user:password@`, percent-encoded as in any URL; nothing else (a path, query or fragment would
 * be ignored by every proxy protocol, so it is refused rather than silently dropped). Throws
 * `ProxyUrlError` with the reason.
 */
export function parseProxyUrl(raw: string): ProxyEndpoint {
  const text = raw.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined || /\s/.test(text)) throw new ProxyUrlError(PROXY_URL_INVALID);
  if (!(PROXY_PROTOCOLS as readonly string[]).includes(scheme)) throw new ProxyUrlError(PROXY_URL_SCHEME);
  const protocol = scheme as ProxyProtocol;
  const url = URL.parse(text);
  if (!url) throw new ProxyUrlError(badPort(text.slice(scheme.length + 3)) ? PROXY_URL_PORT : PROXY_URL_INVALID);
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '' || text.endsWith('?') || text.endsWith('#')) {
    throw new ProxyUrlError(PROXY_URL_EXTRA);
  }
  const host = checkedHost(url.hostname);
  const port = url.port === '' ? DEFAULT_PORTS[protocol] : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new ProxyUrlError(PROXY_URL_PORT);
  const username = decoded(url.username);
  const password = decoded(url.password);
  if (username === PROXY_MASK || password === PROXY_MASK) throw new ProxyUrlError(PROXY_URL_MASKED);
  if (protocol === 'socks5' && (Buffer.byteLength(username) > 255 || Buffer.byteLength(password) > 255)) {
    throw new ProxyUrlError(PROXY_URL_SOCKS_CREDENTIALS);
  }
  const hostPart = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const credentials = url.username || url.password ? `${url.username}${url.password ? `:${url.password}` : ''}@` : '';
  const href = `${protocol}://${credentials}${hostPart}`;
  return { protocol, host, port, username, password, href, masked: maskProxyUrl(href) };
}

/**
 * A proxy URL as anyone may see it: the password replaced by `***` (`socks5://user:***@host:1080`),
 * and a user name without a password (usually a token) replaced by `***` too, as webhook URLs are shown.
 */
export function maskProxyUrl(href: string): string {
  const match = /^([a-z0-9]+:\/\/)([^@/]*)@(.*)$/i.exec(href);
  if (!match) return href;
  const [, scheme, credentials, rest] = match;
  const colon = credentials!.indexOf(':');
  const user = colon === -1 ? '' : credentials!.slice(0, colon);
  return `${scheme}${colon === -1 ? PROXY_MASK : `${user}:${PROXY_MASK}`}@${rest}`;
}
