// The gateways of one region telling each other principals' write positions directly, over UDP
// on the region's own network and HMAC-signed: a write waits for its region's gateways without a
// round trip through the primary (docs/flows/reads-and-writes.md).
import { createHmac, timingSafeEqual } from 'node:crypto';
import dgram from 'node:dgram';
import { authSecret } from '../env';

/** A datagram from a peer: `w <from> <principal> <lsn>`, `a <from> <lsn>`, `h <from> <lsn>`, `b <from>`. */
export interface PeerMessage {
  kind: 'w' | 'a' | 'h' | 'b';
  from: string;
  principal?: string;
  lsn?: string;
}

export interface PeerAddress {
  host: string;
  port: number;
}

export interface PeerSocket {
  /** The port it listens on (its peers send to it). */
  port: number;
  send(to: PeerAddress, m: PeerMessage): void;
  close(): Promise<void>;
}

const MAC_BYTES = 12;
/** A datagram larger than this is not ours (a principal is `key:<id>` or `user:<id>`). */
const MAX_DATAGRAM = 512;

let derived: { secret: string; key: Buffer } | undefined;
function key(): Buffer {
  const secret = authSecret();
  if (derived?.secret !== secret) {
    derived = { secret, key: createHmac('sha256', secret).update('meridian write peers v1').digest() };
  }
  return derived.key;
}

const mac = (body: string) => createHmac('sha256', key()).update(body).digest().subarray(0, MAC_BYTES);

export function encodePeerMessage(m: PeerMessage): Buffer {
  const body = [m.kind, m.from, ...(m.kind === 'w' ? [m.principal ?? '', m.lsn ?? ''] : m.lsn ? [m.lsn] : [])].join(
    ' ',
  );
  return Buffer.concat([mac(body), Buffer.from(body)]);
}

/** The message in `buf`, or undefined for anything not signed with this deployment's secret. */
export function decodePeerMessage(buf: Buffer): PeerMessage | undefined {
  if (buf.length <= MAC_BYTES || buf.length > MAX_DATAGRAM) return undefined;
  const body = buf.subarray(MAC_BYTES).toString('utf8');
  if (!timingSafeEqual(mac(body), buf.subarray(0, MAC_BYTES))) return undefined;
  const [kind, from, a, b] = body.split(' ');
  if (!from || from.length > 64) return undefined;
  switch (kind) {
    case 'w':
      return a && b ? { kind, from, principal: a, lsn: b } : undefined;
    case 'a':
    case 'h':
      return a ? { kind, from, lsn: a } : undefined;
    case 'b':
      return { kind, from };
    default:
      return undefined;
  }
}

/** Binds a UDP socket on `host` (an ephemeral port) and hands `onMessage` every valid datagram. */
export async function openPeerSocket(
  host: string,
  onMessage: (m: PeerMessage, from: PeerAddress) => void,
): Promise<PeerSocket> {
  const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
  socket.on('message', (buf, rinfo) => {
    const m = decodePeerMessage(buf);
    if (m) onMessage(m, { host: rinfo.address, port: rinfo.port });
  });
  socket.on('error', () => {}); // a peer gone away (ICMP unreachable) is the membership's business
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  socket.unref();
  return {
    port: socket.address().port,
    send: (to, m) => socket.send(encodePeerMessage(m), to.port, to.host),
    close: () => new Promise<void>((r) => socket.close(() => r())),
  };
}
