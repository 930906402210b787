// Who is on the other end of a request. Never what the client says about itself: the socket's
// peer address, put in X-Meridian-Peer by our own HTTP server (server/http/server.ts, which
// drops any client-sent copy), and X-Forwarded-For only as far as MERIDIAN_TRUSTED_PROXIES
// says proxies we run have appended to it.
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

function normalize(address: string): string {
  const a = address.trim().replace(/^\[|\]$/g, '');
  const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  const ip = v4mapped ? v4mapped[1]! : a;
  return net.isIP(ip) ? ip.toLowerCase() : 'invalid';
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
