import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { hostAddresses, isPublicAddress } from './public-address.ts';

const none = new Set<string>();

describe('webhook target addresses', () => {
  it.each([
    ['IPv4 loopback', '127.0.0.1'],
    ['IPv4 private', '10.1.2.3'],
    ['IPv4 private', '172.20.0.1'],
    ['IPv4 private', '192.168.1.1'],
    ['IPv4 link-local (cloud metadata)', '169.254.169.254'],
    ['IPv4 carrier-grade NAT', '100.64.0.1'],
    ['IPv4 unspecified', '0.0.0.0'],
    ['IPv4 "this network"', '0.1.2.3'],
    ['IPv4 broadcast', '255.255.255.255'],
    ['IPv4 multicast', '224.0.0.1'],
    ['IPv4 benchmarking', '198.18.0.1'],
    ['IPv4 documentation', '192.0.2.1'],
    ['IPv4 reserved', '240.0.0.1'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 unique local', 'fd00::1'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local with a zone', 'fe80::1%eth0'],
    ['IPv6 site-local (deprecated)', 'fec0::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-mapped loopback, in hex', '::ffff:7f00:1'],
    ['IPv4-compatible', '::127.0.0.1'],
    ['IPv4-compatible, public inside', '::8.8.8.8'],
    ['NAT64', '64:ff9b::10.0.0.1'],
    ['NAT64, public inside', '64:ff9b::8.8.8.8'],
    ['NAT64 local-use', '64:ff9b:1::a00:1'],
    ['6to4', '2002:a00:1::1'],
    ['6to4, public inside', '2002:808:808::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['not an address', 'not-an-ip'],
  ])('refuses %s (%s)', (_what, address) => {
    expect(isPublicAddress(address, none)).toBe(false);
  });

  it.each([
    ['IPv4', '93.184.216.34'],
    ['IPv4', '1.1.1.1'],
    ['IPv6', '2606:4700:4700::1111'],
    ['IPv4-mapped public', '::ffff:8.8.8.8'],
  ])('allows public %s (%s)', (_what, address) => {
    expect(isPublicAddress(address, none)).toBe(true);
  });

  it("refuses this host's own interface addresses, even a public one", () => {
    expect(isPublicAddress('93.184.216.34', new Set(['93.184.216.34']))).toBe(false);
    expect(isPublicAddress('::ffff:93.184.216.34', new Set(['93.184.216.34']))).toBe(false);
    const own = Object.values(networkInterfaces())
      .flat()
      .map((i) => i?.address)
      .filter((a): a is string => !!a);
    expect(own.length).toBeGreaterThan(0);
    for (const a of own) expect(isPublicAddress(a), a).toBe(false);
    expect(hostAddresses().size).toBeGreaterThan(0);
  });
});
