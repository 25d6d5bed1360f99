import type { ClientRequest } from 'node:http';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { Agent as AgentBase, type AgentConnectOpts } from 'agent-base';
import { Agent, type buildConnector, type Dispatcher } from 'undici';
import { checkHostName, guardedLookup } from './guarded-lookup.js';
import { openTunnel, type TunnelTarget } from './proxy-tunnel.js';
import type { ProxyEndpoint } from './proxy-url.js';

/** The CAs a TLS connection through the tunnel trusts instead of the system's (omitted: the system's). */
export interface TunnelTls {
  ca?: readonly string[];
}

const bare = (host: string): string => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** TLS to `host` over an open tunnel; resolves once the handshake (and the certificate check) is done. */
function secure(socket: Socket, host: string, servername: string | undefined, { ca }: TunnelTls, alpn?: string[]): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const tls = tlsConnect({
      socket,
      host,
      // SNI only for names (RFC 6066); the certificate is still checked against the IP address.
      ...(isIP(host) ? {} : { servername: servername ?? host }),
      ...(ca ? { ca: [...ca] } : {}),
      ...(alpn ? { ALPNProtocols: alpn } : {}),
    });
    const failed = (error: Error): void => {
      socket.destroy();
      reject(error);
    };
    tls.once('error', failed);
    tls.once('secureConnect', () => {
      tls.off('error', failed);
      resolve(tls);
    });
  });
}

/**
 * An `http.Agent` whose every connection goes through the egress proxy: for the scan channel's
 * WebSocket (`ws`' `agent`) and its media uploads (Baileys' `fetchAgent`, node:https). The target
 * comes from the operator (WA_WEBSOCKET_URL) or from WhatsApp (the upload hosts of `media_conn`),
 * so its name goes to the proxy as it is, resolved there. TLS to the target runs inside the tunnel,
 * end to end: the proxy never sees the traffic, only the host and port.
 */
export class ProxyHttpAgent extends AgentBase {
  constructor(
    readonly proxy: ProxyEndpoint,
    private readonly tls: TunnelTls = {},
  ) {
    super({ keepAlive: true });
  }

  override async connect(_req: ClientRequest, options: AgentConnectOpts): Promise<Duplex> {
    const host = bare(options.host ?? 'localhost');
    const port = Number(options.port) || (options.secureEndpoint ? 443 : 80);
    const socket = await openTunnel(this.proxy, { host, port });
    if (!options.secureEndpoint) return socket;
    return secure(socket, host, options.servername || undefined, this.tls);
  }
}

export interface ProxyDispatcherOptions extends TunnelTls {
  proxy: ProxyEndpoint;
  /** Skip the address policy for the targets (ALLOW_PRIVATE_MEDIA_URLS). */
  allowPrivate: boolean;
}

/** `host` as checked by the address policy: the literal itself, or a name resolved to a checked address. */
function checkedTarget(host: string): Promise<string> {
  if (checkHostName(host) === 'literal') return Promise.resolve(host);
  return new Promise((resolve, reject) =>
    guardedLookup(host, { all: true }, (error, addresses) => {
      if (error) return reject(error);
      const first = Array.isArray(addresses) ? addresses[0]?.address : addresses;
      if (!first) return reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
      resolve(first);
    }),
  );
}

/**
 * An undici dispatcher (for `fetch(url, { dispatcher })`) whose every connection goes through the
 * egress proxy: media and history-sync downloads of a number with a proxy. The proxy itself is
 * the operator's and trusted (any address, loopback and private included). The targets are not:
 * a message names its media host, chosen by its sender, so unless `allowPrivate` each target is
 * checked as `createGuardedDispatcher` checks it, resolved here, and the proxy is asked for the
 * checked address (never for a name it might resolve otherwise); TLS still verifies the name.
 * With `allowPrivate` the name goes to the proxy as it is.
 */
export function createProxyDispatcher({ proxy, allowPrivate, ca }: ProxyDispatcherOptions): Dispatcher {
  const connect: buildConnector.connector = (options, callback) => {
    const host = bare(options.hostname);
    const secureEndpoint = options.protocol === 'https:';
    const port = Number(options.port) || (secureEndpoint ? 443 : 80);
    void (async (): Promise<Socket> => {
      const target: TunnelTarget = { host: allowPrivate ? host : await checkedTarget(host), port };
      const socket = await openTunnel(proxy, target);
      return secureEndpoint ? secure(socket, host, options.servername ?? undefined, { ca }, ['http/1.1']) : socket;
    })().then(
      (socket) => callback(null, socket),
      (error: Error) => callback(error, null),
    );
  };
  return new Agent({ connect });
}
