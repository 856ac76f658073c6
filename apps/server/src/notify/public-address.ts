/**
 * Whether a webhook may be sent to an address: only a public unicast one, classified by
 * `ipaddr.js`'s range names (its tables follow IANA's special-purpose registries), and never one of
 * this host's own interface addresses (a public address on this machine still reaches its services).
 *
 * Addresses that carry an IPv4 address inside an IPv6 one: an IPv4-mapped address (`::ffff:a.b.c.d`,
 * as a dual-stack lookup reports IPv4) is judged by the IPv4 address it carries. The translation and
 * tunnel forms (NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32`,
 * SIIT, the deprecated IPv4-compatible `::a.b.c.d`) are refused outright: where they are routed is
 * decided by gateways of the network this server runs in, which may well reach inside it.
 */
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/** This host's interface addresses, read on each check (interfaces come and go). */
export function hostAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const i of list ?? []) own.add(ipaddr.process(i.address.replace(/%.*$/, '')).toNormalizedString());
  return own;
}

/**
 * The deprecated IPv4-compatible block (RFC 4291 §2.5.5.1), which `ipaddr.js` names no range for
 * (it calls `::808:808` unicast) and whose dotted spelling `::8.8.8.8` it reads as IPv4-mapped.
 */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** An address as WHATWG URLs write it: `::8.8.8.8` becomes `::808:808`, so its parts are read as written. */
function canonical(address: string): string {
  const bare = address.replace(/%.*$/, '');
  if (!bare.includes(':')) return bare;
  try {
    return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return bare;
  }
}

export function isPublicAddress(address: string, own: Set<string> = hostAddresses()): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(canonical(address));
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (v6.match(IPV4_COMPATIBLE)) return false;
  }
  if (own.has(parsed.toNormalizedString())) return false;
  return parsed.range() === 'unicast';
}
