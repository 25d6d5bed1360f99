import { once } from 'node:events';
import type { AddressInfo, Server, Socket } from 'node:net';
import { connect } from 'node:net';

/** One connection a fake proxy was asked to open, as the proxy saw it. */
export interface ProxiedConnection {
  /** `host:port` the client asked for (IPv6 in brackets), exactly as it asked. */
  target: string;
  /** The user name it authenticated with; '' without credentials. */
  user: string;
  /** What the proxy did: opened the tunnel, refused the credentials, or could not reach the target. */
  outcome: 'tunnel' | 'auth-refused' | 'unreachable';
}

export interface ProxyAuth {
  username: string;
  password: string;
}

export interface FakeProxyOptions {
  /** Credentials the proxy requires; without, it takes anyone. */
  auth?: ProxyAuth;
  host?: string;
  /** A fixed port (a proxy brought back up where it was); default a free one. */
  port?: number;
}

/**
 * What both fake proxies share: the loopback server, the log of every connection asked for, and
 * the piping of an accepted tunnel. Tests read `connections` (or wait with `waitFor`).
 */
export abstract class FakeProxy {
  readonly connections: ProxiedConnection[] = [];
  private readonly open = new Set<Socket>();
  private readonly waiters: { check: (c: ProxiedConnection) => boolean; resolve: (c: ProxiedConnection) => void }[] = [];

  protected constructor(
    protected readonly server: Server,
    protected readonly options: FakeProxyOptions,
  ) {
    server.on('connection', (socket: Socket) => {
      this.open.add(socket);
      socket.once('close', () => this.open.delete(socket));
    });
  }

  protected abstract readonly scheme: 'http' | 'socks5';

  protected async listen(): Promise<void> {
    this.server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1');
    await once(this.server, 'listening');
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The proxy's URL with its credentials (or `credentials`, e.g. wrong ones), as an operator sets it. */
  url(credentials: ProxyAuth | undefined = this.options.auth): string {
    const auth = credentials ? `${encodeURIComponent(credentials.username)}:${encodeURIComponent(credentials.password)}@` : '';
    return `${this.scheme}://${auth}127.0.0.1:${this.port}`;
  }

  /** Targets of the tunnels opened, in order. */
  tunnels(): string[] {
    return this.connections.filter((c) => c.outcome === 'tunnel').map((c) => c.target);
  }

  /** Resolves with the first connection (already logged or to come) that `check` accepts. */
  waitFor(check: (c: ProxiedConnection) => boolean, timeoutMs = 15_000): Promise<ProxiedConnection> {
    const seen = this.connections.find(check);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the ${this.scheme} proxy saw no such connection; it saw ${JSON.stringify(this.connections)}`)),
        timeoutMs,
      );
      this.waiters.push({ check, resolve: (c) => (clearTimeout(timer), resolve(c)) });
    });
  }

  /** Closes the server and every connection through it (the proxy goes down). */
  async stop(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  protected authorized(user: string, password: string): boolean {
    const { auth } = this.options;
    return !auth || (user === auth.username && password === auth.password);
  }

  protected record(connection: ProxiedConnection): void {
    this.connections.push(connection);
    for (const waiter of [...this.waiters]) {
      if (!waiter.check(connection)) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(connection);
    }
  }

  /** Opens the connection to `host:port`; resolves with it, or null when it cannot be reached. */
  protected dial(host: string, port: number): Promise<Socket | null> {
    return new Promise((resolve) => {
      const upstream = connect({ host, port });
      this.open.add(upstream);
      upstream.once('close', () => this.open.delete(upstream));
      upstream.once('connect', () => resolve(upstream));
      upstream.once('error', () => resolve(null));
    });
  }

  /** Both ways until either side ends. */
  protected static pipe(client: Socket, upstream: Socket): void {
    client.pipe(upstream).pipe(client);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.once('error', end).once('close', end);
    upstream.once('error', end).once('close', end);
  }
}
