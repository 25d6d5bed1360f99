import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressRefusal, hostAddress } from './address-policy.js';

/** The host is, or resolves to, an address the policy refuses. */
export class AddressRefusedError extends Error {
  readonly code = 'EADDRREFUSED';

  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(address === host ? `${host} is a ${reason} address` : `${host} resolves to ${address}, a ${reason} address`);
    this.name = 'AddressRefusedError';
  }
}

/** The host name does not resolve (or not in time). */
export class HostUnresolvedError extends Error {
  readonly code = 'EHOSTUNRESOLVED';

  constructor(readonly host: string) {
    super(`${host} could not be resolved`);
    this.name = 'HostUnresolvedError';
  }
}

// RFC 6761: `localhost` and every name under it are loopback, whatever a resolver says.
const LOOPBACK_NAME = /(^|\.)localhost\.?$/i;

/** How names are resolved: `dns.lookup`'s signature, always asked for every address (`all: true`). */
export type Resolve = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolve = dnsLookup as unknown as Resolve;
let currentResolve: Resolve = systemResolve;
let publicStandIns: ReadonlySet<string> = new Set();

/**
 * Test seam, never called in production: every lookup and check of this module (and so every
 * `guardedRequest`) resolves names with `resolve` instead of the system resolver, and treats the
 * `standIns` addresses as public (loopback aliases such as 127.0.0.2 standing in for internet
 * hosts, so that a test can serve one). `useTestResolver(null)` restores the defaults.
 */
export function useTestResolver(resolve: Resolve | null, standIns: readonly string[] = []): void {
  currentResolve = resolve ?? systemResolve;
  publicStandIns = new Set(standIns);
}

const refusalOfAddress = (address: string): string | null => (publicStandIns.has(address) ? null : addressRefusal(address));

function refusalOf(host: string, addresses: readonly LookupAddress[]): AddressRefusedError | null {
  if (LOOPBACK_NAME.test(host)) return new AddressRefusedError(host, host, 'loopback');
  for (const { address } of addresses) {
    const reason = refusalOfAddress(address);
    if (reason) return new AddressRefusedError(host, address, reason);
  }
  return null;
}

function notFound(host: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
}

/**
 * A `lookup` for `net.connect` / `http.request`: the name is resolved once, every address it
 * answers is checked, and the socket is handed exactly that checked list (with `all: true`, as
 * Happy Eyeballs asks, it tries those addresses and no others; otherwise the first). So there is
 * no second resolution a DNS server could answer differently, and each new connection resolves
 * afresh. A host resolving to any refused address is refused outright (one bad address among
 * good ones is how rebinding attacks start). `allowPrivate` skips the policy but keeps the single
 * resolution. `resolve` defaults to the module's resolver (the system's; see `useTestResolver`).
 * IP-literal hosts never reach a lookup: check them with `checkHostName` first.
 */
export function createGuardedLookup(resolve?: Resolve, { allowPrivate = false }: { allowPrivate?: boolean } = {}): LookupFunction {
  return (hostname, options, callback) => {
    const named = allowPrivate ? null : refusalOf(hostname, []);
    if (named) return callback(named as NodeJS.ErrnoException, '', 0);
    (resolve ?? currentResolve)(hostname, { ...(options as LookupOptions), all: true }, (error, list) => {
      if (error) return callback(error, '', 0);
      if (list.length === 0) return callback(notFound(hostname), '', 0);
      const refused = allowPrivate ? null : refusalOf(hostname, list);
      if (refused) return callback(refused as NodeJS.ErrnoException, '', 0);
      if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

export const guardedLookup: LookupFunction = createGuardedLookup();

/**
 * The lookup where private addresses are allowed (ALLOW_PRIVATE_*): the policy is off, but names
 * still resolve once, through the same resolver, to the addresses the socket then connects to.
 */
export const openLookup: LookupFunction = createGuardedLookup(undefined, { allowPrivate: true });

/**
 * What can be checked without DNS: an IP literal (any spelling) against the policy, and names
 * that are loopback by definition (`localhost`). Throws `AddressRefusedError`; answers whether
 * the host was a literal (nothing left to resolve).
 */
export function checkHostName(host: string): 'literal' | 'name' {
  const literal = hostAddress(host);
  if (literal !== null) {
    const reason = refusalOfAddress(literal);
    if (reason) throw new AddressRefusedError(host, literal, reason);
    return 'literal';
  }
  const named = refusalOf(host, []);
  if (named) throw named;
  return 'name';
}

/**
 * Checks a URL host ahead of time (a webhook URL when it is saved): an IP literal (any spelling:
 * `[::ffff:127.0.0.1]`, `2130706433`) against the policy; a name by resolving it, within
 * `timeoutMs`. Throws `AddressRefusedError`, or `HostUnresolvedError` when the name does not
 * resolve. A courtesy only: its answer is never reused, a connection resolves and checks again
 * (`guardedLookup`), since DNS may answer differently by then.
 */
export async function checkHost(host: string, timeoutMs = 5000): Promise<void> {
  if (checkHostName(host) === 'literal') return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HostUnresolvedError(host)), timeoutMs);
  });
  const resolved = new Promise<LookupAddress[]>((resolve, reject) =>
    currentResolve(host, { all: true }, (error, addresses) => (error || addresses.length === 0 ? reject(new HostUnresolvedError(host)) : resolve(addresses))),
  );
  try {
    const refused = refusalOf(host, await Promise.race([resolved, timeout]));
    if (refused) throw refused;
  } finally {
    clearTimeout(timer);
  }
}
