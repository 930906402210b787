// Who is on the other end of a request: the socket's peer (X-Meridian-Peer, set by our HTTP
// server), and X-Forwarded-For only as far as MERIDIAN_TRUSTED_PROXIES says (docs/security.md).
import net from 'node:net';
import { env } from '../env';

export const PEER_HEADER = 'x-meridian-peer';
const TRUSTED = Symbol.for('meridian.peer-header-trusted');

/** Called by our HTTP server, which sets the peer header itself: from then on it is believed. */
export function trustPeerHeader(): void {
  (globalThis as Record<symbol, unknown>)[TRUSTED] = true;
}

function peerHeaderTrusted(): boolean {
  return (globalThis as Record<symbol, unknown>)[TRUSTED] === true;
}

/** The eight 16-bit groups of a valid IPv6 address (zone dropped, embedded IPv4 read). */
function hextets(ip: string): number[] {
  let s = ip.replace(/%.*$/, '');
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    s = `${s.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.map((g) => parseInt(g, 16));
}

function normalize(address: string): string {
  const a = address.trim().replace(/^\[|\]$/g, '');
  const kind = net.isIP(a.replace(/%.*$/, ''));
  if (kind === 4) return a;
  if (kind !== 6) return 'invalid';
  // IPv4-mapped (::ffff:a.b.c.d, also written ::ffff:7f00:1) is an IPv4 client on a dual-stack socket.
  const g = hextets(a);
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
  }
  return a.toLowerCase();
}

/**
 * The bucket rate limits count `address` in: an IPv4 address is one, an IPv6 address its /64
 * (one subscriber's network gets a whole /64, so per-address limits would be 2^64 times wider).
 */
export function addressBucket(address: string): string {
  if (net.isIP(address.replace(/%.*$/, '')) !== 6) return address;
  const g = hextets(address);
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}

/**
 * The client's address: with no trusted proxy, the socket's peer; with N, the entry N hops from
 * the right of X-Forwarded-For + peer (what the outermost trusted proxy saw). `unknown` when the
 * app runs behind a server that doesn't record the peer (then every caller shares one bucket).
 */
export function clientAddress(headers: Headers, trustedProxies = env().MERIDIAN_TRUSTED_PROXIES): string {
  const peer = peerHeaderTrusted() ? headers.get(PEER_HEADER) : null;
  if (!peer) return 'unknown';
  if (trustedProxies === 0) return normalize(peer);
  const forwarded = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  return normalize(chain[Math.max(0, chain.length - 1 - trustedProxies)]!);
}

export function isLoopback(address: string): boolean {
  return address === '::1' || /^127\./.test(address);
}
