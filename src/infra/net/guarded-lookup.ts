import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
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

function refusalOf(host: string, addresses: readonly LookupAddress[]): AddressRefusedError | null {
  if (LOOPBACK_NAME.test(host)) return new AddressRefusedError(host, host, 'loopback');
  for (const { address } of addresses) {
    const reason = addressRefusal(address);
    if (reason) return new AddressRefusedError(host, address, reason);
  }
  return null;
}

/** How names are resolved: `dns.lookup`'s signature (tests pass a resolver of their own). */
export type Resolve = (hostname: string, options: LookupOptions & { all: true }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A `lookup` for `net.connect` / `http.request` that refuses a host resolving to any address the
 * policy refuses (one bad address among good ones is refused too: that mix is how rebinding
 * attacks start). The socket connects to exactly the addresses checked here, so DNS cannot
 * answer differently between the check and the connection. IP-literal hosts never reach a
 * lookup: check them with `checkHost` first.
 */
export function createGuardedLookup(resolve: Resolve = dnsLookup as unknown as Resolve): LookupFunction {
  return (hostname, options, callback) => {
    const named = refusalOf(hostname, []);
    if (named) return callback(named as NodeJS.ErrnoException, '', 0);
    resolve(hostname, { ...(options as LookupOptions), all: true }, (error, list) => {
      if (error) return callback(error, '', 0);
      const refused = refusalOf(hostname, list);
      if (refused) return callback(refused as NodeJS.ErrnoException, '', 0);
      if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

export const guardedLookup: LookupFunction = createGuardedLookup();

/**
 * What can be checked without DNS: an IP literal (any spelling) against the policy, and names
 * that are loopback by definition (`localhost`). Throws `AddressRefusedError`; answers whether
 * the host was a literal (nothing left to resolve).
 */
export function checkHostName(host: string): 'literal' | 'name' {
  const literal = hostAddress(host);
  if (literal !== null) {
    const reason = addressRefusal(literal);
    if (reason) throw new AddressRefusedError(host, literal, reason);
    return 'literal';
  }
  const named = refusalOf(host, []);
  if (named) throw named;
  return 'name';
}

/**
 * Checks a URL host before connecting: an IP literal (any spelling: `[::ffff:127.0.0.1]`,
 * `2130706433`) against the policy; a name by resolving it, within `timeoutMs`. Throws
 * `AddressRefusedError`, or `HostUnresolvedError` when the name does not resolve. The
 * connection itself must still use `guardedLookup` (the answer may change by then).
 */
export async function checkHost(host: string, timeoutMs = 5000): Promise<void> {
  if (checkHostName(host) === 'literal') return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HostUnresolvedError(host)), timeoutMs);
  });
  try {
    const addresses = await Promise.race([dnsLookupAsync(host, { all: true }), timeout]).catch((error: unknown) => {
      throw error instanceof HostUnresolvedError ? error : new HostUnresolvedError(host);
    });
    const refused = refusalOf(host, addresses);
    if (refused) throw refused;
  } finally {
    clearTimeout(timer);
  }
}
