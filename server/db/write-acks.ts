// Gateways' acknowledgements of write positions, and which gateways a write waits for
// (membership checked against pg_stat_activity): docs/flows/reads-and-writes.md.
import { formatLsn, parseLsn } from './lsn';
import {
  MEMBER_APP_PREFIX,
  MEMBER_TTL_MS,
  WRITES_CHANNEL,
  writePositionState as state,
  type AckWaiter,
} from './write-position-state';

/** How long a write waits for every live gateway's acknowledgement before answering anyway. */
export const ACK_WAIT_MS = 100;
/** How often the members are checked against pg_stat_activity, announced or not. */
export const REGISTRY_REFRESH_MS = 5_000;
/** At most one check this often, however many unknown IDs are announced (a flood costs little). */
const REGISTRY_MIN_GAP_MS = 250;
/** Unknown announced IDs held for the next check at most (the rest wait for their next heartbeat). */
const MAX_CANDIDATES = 1_000;
/** The gateways of this role listening now (the prefix is $1; LIKE would treat `_` as a wildcard). */
const REGISTRY_SQL = `
  SELECT substr(application_name, length($1) + 1) AS id FROM pg_stat_activity
  WHERE usename = current_user AND datname = current_database()
    AND left(application_name, length($1)) = $1`;

/** Resolves every waiter whose position each live gateway has acknowledged. */
export function settleWaiters(now = Date.now()): void {
  const s = state();
  if (s.waiters.size === 0) return;
  let least: bigint | undefined;
  for (const [id, m] of s.members) {
    // This process recorded its own write before waiting (noteOwnWrite): only the others count.
    // A lone gateway (the all-in-one demo) so answers without a round trip through the channel.
    if (id === s.id || now - m.seenAt > MEMBER_TTL_MS) continue;
    if (least === undefined || m.acked < least) least = m.acked;
  }
  for (const w of s.waiters) if (least === undefined || least >= w.lsn) w.resolve(true);
}

/**
 * Resolves true once every live gateway has acknowledged hearing position `lsn` (so each one's
 * map holds it), false after `timeoutMs` or at once when this process is not listening. The
 * writer answers its client only then.
 */
export function acknowledged(lsn: bigint, timeoutMs = ACK_WAIT_MS): Promise<boolean> {
  const s = state();
  if (!s.listening) return Promise.resolve(false);
  return new Promise((resolve) => {
    const waiter: AckWaiter = {
      lsn,
      resolve: (ok) => {
        if (!s.waiters.delete(waiter)) return;
        clearTimeout(timer);
        resolve(ok);
      },
    };
    const timer = setTimeout(() => waiter.resolve(false), timeoutMs);
    s.waiters.add(waiter);
    settleWaiters();
  });
}

/** Acknowledges what this process has heard: once per turn of the event loop, however many notices. */
export function scheduleAck(): void {
  const s = state();
  if (s.ackScheduled) return;
  s.ackScheduled = true;
  setImmediate(() => {
    s.ackScheduled = false;
    void s.listener?.notify(WRITES_CHANNEL, `a ${s.id} ${formatLsn(s.heard)}`);
  });
}

/** `a <gateway> <lsn>` (an acknowledgement or a heartbeat) or `a <gateway> bye`, from another gateway. */
export function onAnnouncement(id: string | undefined, what: string | undefined): void {
  const s = state();
  if (!id || id === s.id || !what || id.length > 64) return;
  if (what === 'bye') {
    s.members.delete(id);
    s.candidates.delete(id);
  } else {
    const lsn = parseLsn(what);
    if (lsn === undefined) return;
    const m = s.members.get(id);
    if (m) {
      s.members.set(id, { acked: m.acked > lsn ? m.acked : lsn, seenAt: Date.now() });
    } else {
      // Not waited for until the registry says it is one of this role's gateways.
      const c = s.candidates.get(id);
      if (c || s.candidates.size < MAX_CANDIDATES) {
        s.candidates.set(id, { acked: c && c.acked > lsn ? c.acked : lsn, seenAt: Date.now() });
      }
      checkRegistry();
    }
  }
  settleWaiters();
}

/** Forgets gateways not heard from within MEMBER_TTL_MS (never this one), then settles waiters. */
export function sweepMembers(now = Date.now()): void {
  const s = state();
  for (const [id, m] of s.members) if (id !== s.id && now - m.seenAt > MEMBER_TTL_MS) s.members.delete(id);
  for (const [id, m] of s.candidates) if (now - m.seenAt > MEMBER_TTL_MS) s.candidates.delete(id);
  settleWaiters();
}

/**
 * Reads which gateway IDs have a listening connection of this role now: announced IDs found
 * there become members, members no longer there stop being waited for. One check at a time, at
 * most one per REGISTRY_MIN_GAP_MS; over the listening connection (no pool connection).
 */
export function checkRegistry(): void {
  const s = state();
  if (s.registryRunning || s.registryTimer || !s.listener) return;
  const wait = s.registryAt + REGISTRY_MIN_GAP_MS - Date.now();
  if (wait > 0) {
    s.registryTimer = setTimeout(() => {
      s.registryTimer = undefined;
      checkRegistry();
    }, wait).unref();
    return;
  }
  s.registryRunning = true;
  const asked = [...s.candidates.keys()];
  const listener = s.listener;
  void listener
    .query<{ id: string }>(REGISTRY_SQL, [MEMBER_APP_PREFIX])
    .then((rows) => {
      if (state() !== s || !rows) return;
      s.registered = new Set(rows.map((r) => r.id));
      for (const id of s.members.keys()) if (id !== s.id && !s.registered.has(id)) s.members.delete(id);
      for (const id of asked) {
        const c = s.candidates.get(id);
        s.candidates.delete(id);
        if (c && s.registered.has(id)) s.members.set(id, c);
      }
      settleWaiters();
    })
    .finally(() => {
      s.registryRunning = false;
      s.registryAt = Date.now();
      if (s.candidates.size && s.listener) checkRegistry();
    });
}
