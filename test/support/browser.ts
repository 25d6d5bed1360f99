interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
}

export interface BrowserResponse {
  url: URL;
  status: number;
  headers: Headers;
  body: string;
  /** `body` parsed as JSON, or undefined. */
  json: unknown;
}

export interface Landing {
  /** The first URL off the API: a Console page (`/`, `/signup/google`, `/login?...`), not fetched. */
  url: URL;
  /** Every URL requested on the way, in order. */
  visited: URL[];
}

/**
 * Just enough of a browser for redirect flows across two origins: a cookie jar that keeps cookies
 * per host and path and honours Max-Age/Expires deletion (RFC 6265 host-only cookies, which is
 * all these servers set), and redirect following. `hosts` maps an origin the pages name (the
 * service's PUBLIC_URL) to where it actually listens, as /etc/hosts would. `headers` go with
 * every request (e.g. the client IP behind a trusted proxy).
 */
export class Browser {
  private cookies: StoredCookie[] = [];

  constructor(
    private readonly hosts: Record<string, string> = {},
    private readonly headers: Record<string, string> = {},
  ) {}

  async request(method: string, url: URL | string, init: { json?: unknown; headers?: Record<string, string> } = {}): Promise<BrowserResponse> {
    const target = new URL(url);
    const headers: Record<string, string> = { ...this.headers, ...init.headers };
    const cookie = this.cookieHeader(target);
    if (cookie) headers.cookie = cookie;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.resolve(target), {
      method,
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      redirect: 'manual',
    });
    this.store(target, res.headers.getSetCookie());
    const body = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    return { url: target, status: res.status, headers: res.headers, body, json };
  }

  /** Opens `url` and follows redirects until one leaves the API for a page of the Console (`consoleOrigin`). */
  async navigate(url: URL | string, consoleOrigin: string): Promise<Landing> {
    const visited: URL[] = [];
    let current = new URL(url);
    for (let hop = 0; hop < 20; hop++) {
      visited.push(current);
      const res = await this.request('GET', current);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) {
        throw new Error(`navigation stopped at ${current.href} with ${res.status}: ${res.body.slice(0, 300)}`);
      }
      const next = new URL(location, current);
      if (next.origin === consoleOrigin && !next.pathname.startsWith('/api/')) return { url: next, visited };
      current = next;
    }
    throw new Error(`too many redirects from ${String(url)}`);
  }

  /** The value of a cookie this browser would send to `url`, if any. */
  cookie(url: URL | string, name: string): string | undefined {
    const target = new URL(url);
    return this.cookies.find((c) => c.name === name && this.matches(c, target))?.value;
  }

  setCookie(url: URL | string, name: string, value: string, path = '/'): void {
    const target = new URL(url);
    this.cookies = this.cookies.filter((c) => !(c.name === name && c.host === target.hostname && c.path === path));
    this.cookies.push({ name, value, host: target.hostname, path });
  }

  private resolve(url: URL): string {
    const mapped = this.hosts[url.origin];
    return mapped ? `${mapped}${url.pathname}${url.search}` : url.href;
  }

  private matches(cookie: StoredCookie, url: URL): boolean {
    if (cookie.host !== url.hostname) return false;
    const path = url.pathname;
    return path === cookie.path || path.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`);
  }

  private cookieHeader(url: URL): string {
    return this.cookies
      .filter((c) => this.matches(c, url))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(url: URL, lines: string[]): void {
    for (const line of lines) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const attribute = (key: string): string | undefined => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const defaultPath = url.pathname.slice(0, Math.max(1, url.pathname.lastIndexOf('/')));
      const path = attribute('path') ?? defaultPath;
      const maxAge = attribute('max-age');
      const expires = attribute('expires');
      const gone = (maxAge !== undefined && Number(maxAge) <= 0) || (maxAge === undefined && expires !== undefined && Date.parse(expires) <= Date.now());
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.host === url.hostname && c.path === path));
      if (!gone) this.cookies.push({ name, value, host: url.hostname, path });
    }
  }
}
