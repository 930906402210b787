// Write positions for this gateway process: the channel every gateway hears writes on
// (`meridian_writes`), its region's peers (write-acks.ts), heartbeats and a clean leave
// (docs/flows/reads-and-writes.md).
import { env } from '../env';
import { resetProcessSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';
import { metrics } from '../telemetry/metrics';
import { listen } from './listen';
import { newClient } from './pg-connections';
import { formatLsn, parseLsn } from './lsn';
import { primaryUrl } from './topology';
import {
  checkRegistry,
  heartbeat,
  memberName,
  onPeerMessage,
  REGISTRY_REFRESH_MS,
  sayGoodbye,
  settleWaiters,
} from './write-acks';
import { openPeerSocket } from './write-peers';
import {
  HEARTBEAT_MS,
  MEMBER_APP_PREFIX,
  WRITES_CHANNEL,
  writePositionState as state,
  type State,
} from './write-position-state';
import { remember, sweepPositions } from './write-positions';

/** How long a (re)start waits for its region's gateways to greet it before calling itself listening. */
const GREETING_WAIT_MS = 1_000;

/** A write notice on the channel: `w <principal> <lsn> <sent at, ms since epoch> <sending gateway>`. */
function onNotice(payload: string): void {
  const s = state();
  const [kind, principal, lsnText, sentAt] = payload.split(' ');
  if (kind !== 'w') return; // (acknowledgements went peer to peer: anything else is not ours)
  const lsn = lsnText ? parseLsn(lsnText) : undefined;
  if (!principal || lsn === undefined) return;
  remember(principal, lsn);
  if (lsn > s.heard) s.heard = lsn;
  settleWaiters();
  const sent = Number(sentAt);
  if (Number.isFinite(sent) && sent > 0) metrics.writeNoticeDelaySeconds.observe(Math.max(0, Date.now() - sent) / 1000);
}

async function primaryPosition(): Promise<bigint | undefined> {
  const c = newClient({ connectionString: primaryUrl(), connectionTimeoutMillis: 2_000 });
  c.on('error', () => {});
  try {
    await c.connect();
    const { rows } = await c.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
    return parseLsn(rows[0]!.lsn);
  } finally {
    await c.end().catch(() => {});
  }
}

/** Where this gateway's region's others reach it (UDP): MERIDIAN_PEER_HOST, else MERIDIAN_BIND unless a wildcard. */
function peerHost(): string {
  const e = env();
  if (e.MERIDIAN_PEER_HOST) return e.MERIDIAN_PEER_HOST;
  return ['0.0.0.0', '::', ''].includes(e.MERIDIAN_BIND) ? '127.0.0.1' : e.MERIDIAN_BIND;
}

/**
 * Once the LISTEN is in place: whatever committed before it and was not heard is covered by a
 * floor first; then this region's gateways are found and greeted, and only once each has greeted
 * back (it now tells this one its writes) is the process listening.
 */
async function established(s: State): Promise<void> {
  try {
    const lsn = await primaryPosition();
    if (lsn !== undefined) {
      s.floor = { lsn, at: Date.now() };
      if (lsn > s.heard) s.heard = lsn;
    }
    await checkRegistry();
    const helloAt = Date.now();
    for (const m of s.members.values()) s.peers?.send(m.address, { kind: 'h', from: s.id, lsn: formatLsn(s.heard) });
    const deadline = helloAt + GREETING_WAIT_MS;
    while (Date.now() < deadline && [...s.members.values()].some((m) => m.seenAt <= helloAt)) {
      await new Promise((r) => setTimeout(r, 10));
    }
    if (!s.listener) return; // stopped meanwhile
    s.listening = true;
    s.markReady();
    logger.info(
      {
        gateway: s.id,
        region: s.region,
        peers: s.members.size,
        floor: lsn === undefined ? null : formatLsn(lsn),
      },
      'listening for write positions',
    );
  } catch (e) {
    logger.warn({ err: (e as Error).message }, 'write positions: could not read the primary position; retrying');
    setTimeout(() => void (s.listener && !s.listening && established(s)), 500).unref();
  }
}

async function start(s: State): Promise<void> {
  const host = peerHost();
  try {
    s.peers = await openPeerSocket(host, onPeerMessage);
  } catch (e) {
    logger.warn(
      { err: (e as Error).message, host },
      "write positions: no peer socket; this gateway's writes wait for no other gateway",
    );
  }
  const name = `${MEMBER_APP_PREFIX}${memberName(s.id, s.region, { host, port: s.peers?.port ?? 0 })}`;
  if (Buffer.byteLength(name) > 63) logger.warn({ name }, 'write positions: the peer address is too long to be found');
  s.listener = listen(primaryUrl(), WRITES_CHANNEL, onNotice, {
    retryMs: 500,
    applicationName: name,
    onListening: () => void established(s),
    onDisconnect: () => {
      if (s.listening) logger.warn('write positions: notice channel lost; signed-in reads use the primary');
      s.listening = false;
      for (const w of s.waiters) w.resolve(false);
    },
  });
  s.timer = setInterval(() => {
    const now = Date.now();
    sweepPositions(now);
    heartbeat(now);
    if (s.listening && now - s.registryAt >= REGISTRY_REFRESH_MS) void checkRegistry();
  }, HEARTBEAT_MS);
  s.timer.unref();
}

/** Starts listening (once per process); resolves when the process listens or after `timeoutMs`. */
export async function ensureWritePositions(timeoutMs = 0): Promise<boolean> {
  const s = state();
  s.starting ??= start(s);
  if (s.listening || timeoutMs <= 0) return s.listening;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([s.ready, new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
  clearTimeout(timer);
  return s.listening;
}

/** Whether this process currently hears other gateways' writes (readiness reports it). */
export function writePositionsListening(): boolean {
  return state().listening;
}

/** On a clean stop: the other gateways stop waiting for this one at once. */
export async function leaveWritePositions(): Promise<void> {
  const s = state();
  clearInterval(s.timer);
  clearTimeout(s.registryTimer);
  sayGoodbye();
  await s.starting;
  await s.listener?.stop();
  s.listener = undefined;
  s.listening = false;
  await s.peers?.close();
  s.peers = undefined;
}

/** For tests that point the process at another database: stop, and forget everything. */
export async function resetWritePositions(): Promise<void> {
  const s = state();
  clearInterval(s.timer);
  clearTimeout(s.registryTimer);
  for (const w of s.waiters) w.resolve(false);
  await s.starting;
  await s.listener?.stop();
  await s.peers?.close();
  resetProcessSingleton('write-positions');
}

/** Test aid: how many principals this process holds a position for, and how many gateways of its region it knows (itself included). */
export function writePositionStats(): { principals: number; gateways: number } {
  const s = state();
  return { principals: s.positions.size, gateways: s.members.size + 1 };
}
