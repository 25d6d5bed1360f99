import { isIPv4, isIPv6 } from 'node:net';

/**
 * The rate-limit key of a client address. An IPv6 client usually holds a whole /64 (one per
 * household or server) and can pick any address in it, so IPv6 is keyed by its /64 prefix;
 * keying by the full /128 would let one client rotate through 2^64 budgets. IPv4-mapped IPv6
 * addresses (`::ffff:192.0.2.1`, how a dual-stack socket reports IPv4 peers) count as the IPv4
 * address. Anything else (IPv4, or an unparsable `X-Forwarded-For` entry) is keyed as it is.
 */
export function rateLimitClientKey(address: string): string {
  const bare = address.replace(/%.*$/, ''); // zone id (fe80::1%eth0)
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted && isIPv4(dotted)) {
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string): number[] => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
