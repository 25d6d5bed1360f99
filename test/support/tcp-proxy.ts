import net from 'node:net';

/**
 * A loopback TCP proxy a test can switch off and on, to make a dependency (Postgres, Redis)
 * unreachable for the app under test without touching the real server. `close()` stops
 * listening and cuts every open connection, as a crashed server or a broken network would;
 * `open()` listens again on the same port, so the app's URL stays valid and it can recover.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private listenPort = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Starts a proxy on an ephemeral loopback port forwarding to the host and port of `targetUrl`. */
  static async start(targetUrl: string): Promise<TcpProxy> {
    const target = new URL(targetUrl);
    const proxy = new TcpProxy(target.hostname, Number(target.port));
    await proxy.open();
    return proxy;
  }

  get port(): number {
    return this.listenPort;
  }

  /** `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string {
    const rewritten = new URL(url);
    rewritten.hostname = '127.0.0.1';
    rewritten.port = String(this.listenPort);
    return rewritten.toString();
  }

  async open(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((client) => this.forward(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.listenPort = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }

  private forward(client: net.Socket): void {
    const upstream = net.connect(this.targetPort, this.targetHost);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      // A reset on one side must not crash the test process; the other side is torn down too.
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
