// A write waits for its own region's other gateways to acknowledge the principal's position, told
// directly over the peers' UDP (write-peers.ts); who they are comes from pg_stat_activity
// (docs/flows/reads-and-writes.md).
import { formatLsn, parseLsn } from './lsn';
import type { PeerAddress, PeerMessage } from './write-peers';
import {
  MEMBER_APP_PREFIX,
  MEMBER_TTL_MS,
  writePositionState as state,
  type AckWaiter,
  type State,
} from './write-position-state';
import { remember } from './write-positions';

/** How long a write waits for its region's gateways before answering anyway. */
export const ACK_WAIT_MS = 100;
/** A peer that has not acknowledged by then is told once more (a datagram can be lost). */
const RESEND_MS = 20;
/** How often the members are checked against pg_stat_activity, whoever speaks or not. */
export const REGISTRY_REFRESH_MS = 5_000;
/** At most one check this often, however many unknown senders speak (a flood costs little). */
const REGISTRY_MIN_GAP_MS = 250;
/** Unknown senders held for the next check at most (the rest wait for their next heartbeat). */
const MAX_CANDIDATES = 1_000;
/** The gateways of this role listening now (the prefix is $1; LIKE would treat `_` as a wildcard). */
const REGISTRY_SQL = `
  SELECT substr(application_name, length($1) + 1) AS member FROM pg_stat_activity
  WHERE usename = current_user AND datname = current_database()
    AND left(application_name, length($1)) = $1`;

/** `<id> <region> <host>:<port>` (the listening connection's application_name after the prefix). */
export function memberName(id: string, region: string, address: PeerAddress): string {
  return `${id} ${region} ${address.host}:${address.port}`;
}

export function parseMemberName(text: string): { id: string; region: string; address: PeerAddress } | undefined {
  const [id, region, where] = text.split(' ');
  const colon = where?.lastIndexOf(':') ?? -1;
  if (!id || !region || !where || colon <= 0) return undefined;
  const port = Number(where.slice(colon + 1));
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return undefined;
  return { id, region, address: { host: where.slice(0, colon), port } };
}

const isLive = (seenAt: number, now: number) => now - seenAt <= MEMBER_TTL_MS;

/** The peers a write waits for now: this region's registered gateways heard from lately. */
function livePeers(s: State, now = Date.now()): string[] {
  const out: string[] = [];
  for (const [id, m] of s.members) if (isLive(m.seenAt, now)) out.push(id);
  return out;
}

/** Resolves every waiter whose position each of its peers has acknowledged (or that is gone). */
export function settleWaiters(now = Date.now()): void {
  const s = state();
  for (const w of s.waiters) {
    const done = w.peers.every((id) => {
      const m = s.members.get(id);
      return !m || !isLive(m.seenAt, now) || m.acked >= w.lsn;
    });
    if (done) w.resolve(true);
  }
}

/**
 * Tells this region's other gateways `principal`'s position `lsn` and resolves true once each has
 * acknowledged it (so each one's map holds it), false after `timeoutMs` or at once when this
 * process is not listening. A region of one gateway answers at once. The writer answers its
 * client only then: the client's next request, at whichever gateway of the region, sees its write.
 */
export function acknowledged(principal: string, lsn: bigint, timeoutMs = ACK_WAIT_MS): Promise<boolean> {
  const s = state();
  if (!s.listening || !s.peers) return Promise.resolve(false);
  const peers = livePeers(s);
  if (peers.length === 0) return Promise.resolve(true);
  const message: PeerMessage = { kind: 'w', from: s.id, principal, lsn: formatLsn(lsn) };
  const tell = (ids: string[]) => {
    for (const id of ids) {
      const m = s.members.get(id);
      if (m && m.acked < lsn) s.peers?.send(m.address, message);
    }
  };
  tell(peers);
  return new Promise((resolve) => {
    const waiter: AckWaiter = {
      lsn,
      peers,
      resolve: (ok) => {
        if (!s.waiters.delete(waiter)) return;
        clearTimeout(timer);
        clearTimeout(resend);
        resolve(ok);
      },
    };
    const resend = setTimeout(() => tell(peers), RESEND_MS);
    const timer = setTimeout(() => waiter.resolve(false), timeoutMs);
    s.waiters.add(waiter);
    settleWaiters();
  });
}

/** What a peer's datagram means here; `from` is where it came from (acknowledgements go back there). */
export function onPeerMessage(m: PeerMessage, from: PeerAddress): void {
  const s = state();
  if (m.from === s.id) return;
  const now = Date.now();
  if (m.kind === 'b') {
    s.members.delete(m.from);
    s.candidates.delete(m.from);
    settleWaiters(now);
    return;
  }
  const lsn = m.lsn ? parseLsn(m.lsn) : undefined;
  if (lsn === undefined) return;
  if (m.kind === 'w') {
    // A position only ever makes reads fresher: held whoever sent it (the datagram is signed).
    remember(m.principal!, lsn, now);
    if (lsn > s.heard) s.heard = lsn;
    s.peers?.send(from, { kind: 'a', from: s.id, lsn: formatLsn(lsn) });
  }
  const member = s.members.get(m.from);
  const acked = m.kind === 'a' ? lsn : undefined;
  if (member) {
    member.seenAt = now;
    if (acked !== undefined && acked > member.acked) member.acked = acked;
  } else {
    // Not waited for until the registry says it is one of this role's gateways of this region.
    const c = s.candidates.get(m.from);
    if (c || s.candidates.size < MAX_CANDIDATES) {
      s.candidates.set(m.from, {
        acked: acked !== undefined && (!c || acked > c.acked) ? acked : (c?.acked ?? 0n),
        seenAt: now,
      });
    }
    checkRegistry();
  }
  settleWaiters(now);
}

/** A heartbeat to every member (what keeps this gateway waited for), and a sweep of old candidates. */
export function heartbeat(now = Date.now()): void {
  const s = state();
  if (!s.peers || !s.listening) return;
  for (const m of s.members.values()) s.peers.send(m.address, { kind: 'h', from: s.id, lsn: formatLsn(s.heard) });
  for (const [id, c] of s.candidates) if (!isLive(c.seenAt, now)) s.candidates.delete(id);
  settleWaiters(now);
}

/** On a clean stop: the region's other gateways stop waiting for this one at once. */
export function sayGoodbye(): void {
  const s = state();
  for (const m of s.members.values()) s.peers?.send(m.address, { kind: 'b', from: s.id });
}

/**
 * Reads which gateways of this region have a listening connection of this role now: they are the
 * members (a new one is greeted at once, so it knows it is heard), the rest are forgotten. One
 * check at a time, at most one per REGISTRY_MIN_GAP_MS; over the listening connection.
 */
export function checkRegistry(): Promise<void> {
  const s = state();
  if (s.registryRunning || s.registryTimer || !s.listener) return Promise.resolve();
  const wait = s.registryAt + REGISTRY_MIN_GAP_MS - Date.now();
  if (wait > 0) {
    s.registryTimer = setTimeout(() => {
      s.registryTimer = undefined;
      void checkRegistry();
    }, wait).unref();
    return Promise.resolve();
  }
  s.registryRunning = true;
  const listener = s.listener;
  return listener
    .query<{ member: string }>(REGISTRY_SQL, [MEMBER_APP_PREFIX])
    .then((rows) => {
      if (state() !== s || !rows) return;
      const now = Date.now();
      const found = new Map<string, PeerAddress>();
      for (const r of rows) {
        const p = parseMemberName(r.member);
        if (p && p.id !== s.id && p.region === s.region) found.set(p.id, p.address);
      }
      for (const id of s.members.keys()) if (!found.has(id)) s.members.delete(id);
      for (const [id, address] of found) {
        const m = s.members.get(id);
        if (m) {
          m.address = address;
          continue;
        }
        const c = s.candidates.get(id);
        s.candidates.delete(id);
        s.members.set(id, { address, acked: c?.acked ?? 0n, seenAt: c?.seenAt ?? now });
        // Greets the newcomer: what its start waits for (write-notices.ts).
        s.peers?.send(address, { kind: 'h', from: s.id, lsn: formatLsn(s.heard) });
      }
      settleWaiters(now);
    })
    .finally(() => {
      s.registryRunning = false;
      s.registryAt = Date.now();
      if (s.candidates.size && s.listener) void checkRegistry();
    });
}
