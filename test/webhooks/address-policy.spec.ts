import { describe, expect, it } from '@jest/globals';
import { addressRefusal, hostAddress, parseLooseIPv4 } from '../../src/infra/net/address-policy.js';
import { AddressRefusedError, checkHost, createGuardedLookup, guardedLookup, type Resolve } from '../../src/infra/net/guarded-lookup.js';

describe('address policy (src/infra/net)', () => {
  it('refuses every internal range, IPv4 and IPv6, naming it', () => {
    const refused: [string, string][] = [
      ['0.0.0.0', 'this-network'],
      ['10.1.2.3', 'private'],
      ['100.64.0.1', 'carrier-grade NAT'],
      ['100.127.255.254', 'carrier-grade NAT'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.255', 'loopback'],
      ['169.254.169.254', 'link-local'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.0.0.8', 'IETF protocol assignment'],
      ['192.0.2.1', 'documentation'],
      ['192.168.1.1', 'private'],
      ['198.18.0.1', 'benchmarking'],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.9', 'documentation'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['255.255.255.255', 'reserved'],
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:169.254.169.254', 'link-local'],
      ['::127.0.0.1', 'IPv4-compatible'],
      ['64:ff9b::a00:1', 'private'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['2002:7f00:1::', 'loopback'],
      ['2002:a9fe:a9fe::1', 'link-local'],
      ['2001:db8::1', 'documentation'],
      ['2001::1', 'IETF protocol assignment'],
      ['fc00::1', 'unique local'],
      ['fd12:3456::1', 'unique local'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['fec0::1', 'site-local'],
      ['ff02::1', 'multicast'],
      ['100::1', 'discard-only'],
      ['not-an-ip', 'not an IP address'],
    ];
    for (const [address, reason] of refused) expect({ address, reason: addressRefusal(address) }).toEqual({ address, reason });
  });

  it('lets public unicast addresses through, also inside IPv4-mapped, NAT64 and 6to4 forms', () => {
    for (const address of [
      '1.1.1.1',
      '8.8.8.8',
      '93.184.215.14',
      '100.128.0.1',
      '172.32.0.1',
      '192.169.0.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ]) {
      expect({ address, reason: addressRefusal(address) }).toEqual({ address, reason: null });
    }
  });

  it('reads the host spellings that mean an address: decimal, octal, hex, short, bracketed', () => {
    expect(parseLooseIPv4('2130706433')).toBe('127.0.0.1');
    expect(parseLooseIPv4('0x7f000001')).toBe('127.0.0.1');
    expect(parseLooseIPv4('0177.0.0.1')).toBe('127.0.0.1');
    expect(parseLooseIPv4('0x7f.1')).toBe('127.0.0.1');
    expect(parseLooseIPv4('127.1')).toBe('127.0.0.1');
    expect(parseLooseIPv4('10.1')).toBe('10.0.0.1');
    expect(parseLooseIPv4('017700000001')).toBe('127.0.0.1');
    expect(parseLooseIPv4('4294967296')).toBeNull();
    expect(parseLooseIPv4('256.0.0.1')).toBeNull();
    expect(parseLooseIPv4('example.com')).toBeNull();
    expect(parseLooseIPv4('09.1.1.1')).toBeNull();
    expect(hostAddress('[::FFFF:127.0.0.1]')).toBe('::ffff:127.0.0.1');
    expect(hostAddress('2130706433')).toBe('127.0.0.1');
    expect(hostAddress('127.0.0.1.')).toBe('127.0.0.1');
    expect(hostAddress('hooks.example.com')).toBeNull();
  });

  it('checks literals and names before connecting, and the lookup refuses a name that resolves inside', async () => {
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:7f00:1]', '2130706433', 'localhost']) {
      await expect(checkHost(host)).rejects.toBeInstanceOf(AddressRefusedError);
    }
    await expect(checkHost('8.8.8.8')).resolves.toBeUndefined();
    const error = await new Promise<Error | null>((resolve) => guardedLookup('localhost', { all: true }, (err) => resolve(err)));
    expect(error).toBeInstanceOf(AddressRefusedError);
    expect(error!.message).toBe('localhost is a loopback address');
  });

  it('connects only to checked addresses: a name answering one internal address among public ones is refused', async () => {
    const answers: Record<string, string[]> = { 'rebind.test': ['93.184.215.14', '10.0.0.7'], 'public.test': ['93.184.215.14', '2606:4700::1'] };
    const resolve: Resolve = (hostname, _options, callback) =>
      callback(
        null,
        (answers[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    const lookup = createGuardedLookup(resolve);
    const run = (host: string, all: boolean): Promise<[Error | null, unknown]> =>
      new Promise((done) => lookup(host, { all }, (error, address) => done([error, address])));
    const [refused] = await run('rebind.test', true);
    expect(refused).toBeInstanceOf(AddressRefusedError);
    expect(refused!.message).toBe('rebind.test resolves to 10.0.0.7, a private address');
    expect(await run('public.test', true)).toEqual([
      null,
      [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:4700::1', family: 6 },
      ],
    ]);
    expect(await run('public.test', false)).toEqual([null, '93.184.215.14']);
  });
});
