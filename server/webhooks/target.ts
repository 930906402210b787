// Where a webhook may be sent (no SSRF): the address actually connected to is checked, not the
// name, so a name that resolves elsewhere at delivery time (DNS rebinding) is refused too.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Never a webhook target: private, shared, link-local (cloud metadata), multicast, reserved, documentation. */
const REFUSED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16], // link-local, with 169.254.169.254 (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  REFUSED.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['64:ff9b::', 96], // NAT64: could reach any IPv4 address, private ones included
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local, with fd00:ec2::254 (cloud metadata)
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  REFUSED.addSubnet(net, bits, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:a.b.c.d), as the IPv4 address it is. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return { address: m[1]!, family: 'ipv4' };
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 'ipv4' };
  }
  return { address, family: isIP(address) === 4 ? 'ipv4' : 'ipv6' };
}

/** Why this address may not be a webhook target, or null when it may. */
export function refusedAddress(address: string, opts: { allowLoopback: boolean }): string | null {
  if (isIP(address) === 0) return `${address} is not an IP address`;
  const a = unmapped(address);
  if (LOOPBACK.check(a.address, a.family)) return opts.allowLoopback ? null : `${address} is a loopback address`;
  if (REFUSED.check(a.address, a.family)) return `${address} is a private, link-local or reserved address`;
  return null;
}

export class TargetRefused extends Error {
  readonly code = 'target_refused';
}

/**
 * A `lookup` for http.request / net.connect: resolves as usual, then keeps only the addresses a
 * webhook may reach (the connection is made to one of those), else fails with TargetRefused.
 */
export function guardedLookup(opts: { allowLoopback: boolean }): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const allowed = list.filter((a) => refusedAddress(a.address, opts) === null);
      if (allowed.length === 0) {
        const why = list.length ? refusedAddress(list[0]!.address, opts) : 'no address';
        return callback(new TargetRefused(`${hostname}: ${why}`), '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/** A URL an endpoint may have: http(s), no credentials, and no refused IP literal as its host. */
export function endpointUrlProblem(raw: string, opts: { allowLoopback: boolean }): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'only http:// and https:// URLs';
  if (u.username || u.password) return 'no credentials in the URL (the signature authenticates the sender)';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return refusedAddress(host, opts);
  if (!opts.allowLoopback && /^localhost\.?$|\.localhost\.?$/i.test(host)) return `${host} is a loopback name`;
  return null;
}
