import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses the service may connect to on a caller's behalf (webhook endpoints, media URLs
 * of sends): only public unicast ones. Everything else is refused: the service's own host and
 * network, cloud metadata (169.254.169.254), carrier-grade NAT, multicast, documentation and
 * reserved ranges, in IPv4 and IPv6, including IPv6 forms that carry an IPv4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`), which are judged by
 * the IPv4 address inside. Ranges: the IANA IPv4 and IPv6 Special-Purpose Address Registries.
 */

type Range = readonly [prefix: bigint, bits: number, reason: string];

const V4: readonly (readonly [string, number, string])[] = [
  ['0.0.0.0', 8, 'this-network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignment'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6: readonly (readonly [string, number, string])[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  // IPv4-compatible (deprecated) addresses; the two above are its only other members.
  ['::', 96, 'IPv4-compatible'],
  ['::ffff:0:0:0', 96, 'IPv4-translated'],
  ['64:ff9b:1::', 48, 'local NAT64'],
  ['100::', 64, 'discard-only'],
  ['2001::', 23, 'IETF protocol assignment'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'segment routing'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

// IPv6 prefixes whose low or middle bits are an IPv4 address, judged by that address.
const MAPPED = { prefix: 0xffffn << 32n, bits: 96 };
const NAT64 = { prefix: 0x0064ff9bn << 96n, bits: 96 };
const SIX_TO_FOUR = { prefix: 0x2002n << 112n, bits: 16 };

const inRange = (value: bigint, width: number, prefix: bigint, bits: number): boolean => value >> BigInt(width - bits) === prefix >> BigInt(width - bits);

const V4_RANGES: Range[] = V4.map(([net, bits, reason]) => [ipv4ToBigInt(net)!, bits, reason]);
const V6_RANGES: Range[] = V6.map(([net, bits, reason]) => [ipv6ToBigInt(net)!, bits, reason]);

/** The 32-bit value of a dotted-quad IPv4 address (exactly four decimal parts), else null. */
function ipv4ToBigInt(address: string): bigint | null {
  if (!isIPv4(address)) return null;
  return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** The 128-bit value of an IPv6 address (with `::` and a trailing dotted quad allowed), else null. */
function ipv6ToBigInt(address: string): bigint | null {
  if (!isIPv6(address)) return null;
  let text = address.toLowerCase();
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const v4 = ipv4ToBigInt(quad[1]!);
    if (v4 === null) return null;
    text = `${text.slice(0, quad.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) return null;
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const v4Text = (value: bigint): string => [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');

function v4Reason(value: bigint): string | null {
  for (const [prefix, bits, reason] of V4_RANGES) if (inRange(value, 32, prefix, bits)) return reason;
  return null;
}

/**
 * Parses an IPv4 address the way `inet_aton` (and browsers' URL parser) read hosts: one to four
 * parts, each decimal, octal (leading 0) or hex (0x), the last part filling the remaining bytes.
 * So `2130706433`, `0x7f000001`, `0177.0.0.1` and `127.1` all mean 127.0.0.1. Null when `host`
 * is not such a number.
 */
export function parseLooseIPv4(host: string): string | null {
  const parts = host.split('.');
  if (parts.length > 4 || parts.some((part) => !/^(0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*)$/i.test(part))) return null;
  const values = parts.map((part) =>
    /^0x/i.test(part) ? Number.parseInt(part.slice(2) || '0', 16) : part.startsWith('0') ? Number.parseInt(part, 8) : Number(part),
  );
  const last = values.pop()!;
  if (values.some((value) => value > 255) || last >= 2 ** (8 * (4 - values.length))) return null;
  let result = BigInt(last);
  values.forEach((value, index) => (result |= BigInt(value) << BigInt(8 * (3 - index))));
  return v4Text(result);
}

/**
 * The IP address a URL host (or a bare host) denotes, canonical: `[::1]` → `::1`,
 * `2130706433` → `127.0.0.1`. Null for a host name, which must be resolved first.
 */
export function hostAddress(host: string): string | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv4(bare) || isIPv6(bare)) return bare.toLowerCase();
  return parseLooseIPv4(bare.replace(/\.$/, ''));
}

/**
 * Why the service must not connect to `address` (e.g. `loopback`, `private`, `link-local`,
 * `carrier-grade NAT`, `multicast`), or null when it is a public unicast address. Anything that
 * is not a valid IP address is refused as `not an IP address`.
 */
export function addressRefusal(address: string): string | null {
  const v4 = ipv4ToBigInt(address);
  if (v4 !== null) return v4Reason(v4);
  const v6 = ipv6ToBigInt(address.replace(/%.*$/, ''));
  if (v6 === null) return 'not an IP address';
  // A zone id (fe80::1%eth0) only exists for link-local scopes.
  if (address.includes('%')) return 'link-local';
  for (const embedded of [MAPPED, NAT64]) {
    if (inRange(v6, 128, embedded.prefix, embedded.bits)) return v4Reason(v6 & 0xffffffffn);
  }
  if (inRange(v6, 128, SIX_TO_FOUR.prefix, SIX_TO_FOUR.bits)) return v4Reason((v6 >> 80n) & 0xffffffffn);
  for (const [prefix, bits, reason] of V6_RANGES) if (inRange(v6, 128, prefix, bits)) return reason;
  return null;
}

export const isPublicAddress = (address: string): boolean => addressRefusal(address) === null;
