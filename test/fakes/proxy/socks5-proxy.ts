import { createServer, type Socket } from 'node:net';
import { FakeProxy, type FakeProxyOptions } from './proxy-log.js';

const VERSION = 0x05;
const NO_AUTH = 0x00;
const USER_PASS = 0x02;
const NO_ACCEPTABLE = 0xff;
const CONNECT = 0x01;
const REPLY = { granted: 0x00, failure: 0x01, refused: 0x05, commandNotSupported: 0x07, addressNotSupported: 0x08 } as const;

/** Reads exact byte counts off a socket (the SOCKS handshake's fields), keeping what came early. */
class Reader {
  private buffer = Buffer.alloc(0);
  private wanted: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | null = null;
  private ended = false;

  constructor(private readonly socket: Socket) {
    socket.on('data', this.onData);
    socket.once('close', () => {
      this.ended = true;
      this.wanted?.reject(new Error('client went away'));
    });
  }

  private readonly onData = (chunk: Buffer): void => {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    this.deliver();
  };

  private deliver(): void {
    if (!this.wanted || this.buffer.length < this.wanted.n) return;
    const { n, resolve } = this.wanted;
    this.wanted = null;
    const bytes = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    resolve(bytes);
  }

  read(n: number): Promise<Buffer> {
    if (this.ended) return Promise.reject(new Error('client went away'));
    return new Promise((resolve, reject) => {
      this.wanted = { n, resolve, reject };
      this.deliver();
    });
  }

  /** Stops reading; what was read ahead belongs to the tunnel. */
  detach(): Buffer {
    this.socket.off('data', this.onData);
    return this.buffer;
  }
}

/**
 * A loopback SOCKS5 proxy (RFC 1928, CONNECT only) with optional username/password
 * authentication (RFC 1929): IPv4, IPv6 and host-name targets, reply 5 (connection refused) when
 * the target cannot be reached. Logs each connection asked for.
 */
export class Socks5Proxy extends FakeProxy {
  protected readonly scheme = 'socks5';

  private constructor(options: FakeProxyOptions) {
    const server = createServer((socket) => void this.handle(socket).catch(() => socket.destroy()));
    super(server, options);
  }

  static async start(options: FakeProxyOptions = {}): Promise<Socks5Proxy> {
    const proxy = new Socks5Proxy(options);
    await proxy.listen();
    return proxy;
  }

  private async handle(client: Socket): Promise<void> {
    client.on('error', () => client.destroy());
    const reader = new Reader(client);
    const [version, count] = await reader.read(2);
    if (version !== VERSION) return void client.destroy();
    const methods = [...(await reader.read(count!))];
    const wanted = this.options.auth ? USER_PASS : NO_AUTH;
    if (!methods.includes(wanted)) return void client.end(Buffer.from([VERSION, NO_ACCEPTABLE]));
    client.write(Buffer.from([VERSION, wanted]));
    let user = '';
    if (wanted === USER_PASS) {
      const [, userLength] = await reader.read(2);
      user = (await reader.read(userLength!)).toString('utf8');
      const [passwordLength] = await reader.read(1);
      const password = (await reader.read(passwordLength!)).toString('utf8');
      if (!this.authorized(user, password)) {
        this.record({ target: '', user, outcome: 'auth-refused' });
        return void client.end(Buffer.from([0x01, 0x01]));
      }
      client.write(Buffer.from([0x01, 0x00]));
    }
    const [, command, , type] = await reader.read(4);
    let host: string;
    if (type === 0x01) host = [...(await reader.read(4))].join('.');
    else if (type === 0x03) host = (await reader.read((await reader.read(1))[0]!)).toString('utf8');
    else if (type === 0x04) host = ipv6(await reader.read(16));
    else return void client.end(reply(REPLY.addressNotSupported));
    const port = (await reader.read(2)).readUInt16BE(0);
    const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    if (command !== CONNECT) return void client.end(reply(REPLY.commandNotSupported));
    const upstream = await this.dial(host, port);
    if (!upstream) {
      this.record({ target, user, outcome: 'unreachable' });
      return void client.end(reply(REPLY.refused));
    }
    this.record({ target, user, outcome: 'tunnel' });
    client.write(reply(REPLY.granted));
    const early = reader.detach();
    if (early.length > 0) upstream.write(early);
    FakeProxy.pipe(client, upstream);
  }
}

/** A reply with a zero bound address (clients of a CONNECT do not use it). */
const reply = (code: number): Buffer => Buffer.from([VERSION, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);

function ipv6(bytes: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return groups
    .join(':')
    .replace(/(^|:)0(:0)+(:|$)/, '::')
    .replace(/:{3,}/, '::');
}
