import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { FakeProxy, type FakeProxyOptions } from './proxy-log.js';

/**
 * A loopback HTTP proxy that only tunnels (`CONNECT host:port`), as the egress proxies operators
 * run do: optional Basic credentials (407 without or with wrong ones), 502 when the target cannot
 * be reached, anything but CONNECT 405. Logs each connection asked for.
 */
export class HttpConnectProxy extends FakeProxy {
  protected readonly scheme = 'http';

  private constructor(options: FakeProxyOptions) {
    const server = createServer((_req, res) => res.writeHead(405).end());
    super(server, options);
    server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => void this.tunnel(req, client, head));
  }

  static async start(options: FakeProxyOptions = {}): Promise<HttpConnectProxy> {
    const proxy = new HttpConnectProxy(options);
    await proxy.listen();
    return proxy;
  }

  private async tunnel(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const target = req.url ?? '';
    const [user, password] = basic(req.headers['proxy-authorization']);
    if (!this.authorized(user, password)) {
      this.record({ target, user, outcome: 'auth-refused' });
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="fake"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
    const upstream = match ? await this.dial(match[1]!, Number(match[2])) : null;
    if (!upstream) {
      this.record({ target, user, outcome: 'unreachable' });
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.record({ target, user, outcome: 'tunnel' });
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    FakeProxy.pipe(client, upstream);
  }
}

function basic(header: string | undefined): [string, string] {
  const encoded = /^Basic\s+(\S+)$/i.exec(header ?? '')?.[1];
  if (!encoded) return ['', ''];
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon === -1 ? [text, ''] : [text.slice(0, colon), text.slice(colon + 1)];
}
