// The write-position channel (`meridian_writes`): listening, the notices heard, heartbeats and a
// clean leave, for this gateway process (docs/flows/reads-and-writes.md).
import pg from 'pg';
import { resetProcessSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';
import { metrics } from '../telemetry/metrics';
import { listen } from './listen';
import { formatLsn, parseLsn } from './lsn';
import { primaryUrl } from './topology';
import {
  checkRegistry,
  onAnnouncement,
  REGISTRY_REFRESH_MS,
  scheduleAck,
  settleWaiters,
  sweepMembers,
} from './write-acks';
import { MEMBER_APP_PREFIX, WRITES_CHANNEL, writePositionState as state } from './write-position-state';
import { remember, sweepPositions } from './write-positions';

const HEARTBEAT_MS = 1_000;

/** One notice on the channel: another gateway's write (`w …`) or an announcement (`a …`). */
function onNotice(payload: string): void {
  const s = state();
  const parts = payload.split(' ');
  if (parts[0] === 'w') {
    // `w <principal> <lsn> <sent at, ms since epoch> <sending gateway>`
    const [, principal, lsnText, sentAt, sender] = parts;
    const lsn = lsnText ? parseLsn(lsnText) : undefined;
    if (!principal || lsn === undefined) return;
    remember(principal, lsn);
    if (lsn > s.heard) s.heard = lsn;
    // Nobody waits for this gateway to hear its own writes (it noted them before sending): only
    // other gateways' notices are acknowledged. An acknowledgement covers everything heard so
    // far, so skipping these delays no one.
    if (sender !== s.id) scheduleAck();
    settleWaiters(); // this process's own part
    const sent = Number(sentAt);
    if (Number.isFinite(sent) && sent > 0)
      metrics.writeNoticeDelaySeconds.observe(Math.max(0, Date.now() - sent) / 1000);
  } else if (parts[0] === 'a') {
    // `a <gateway> <lsn>` (an acknowledgement or a heartbeat), `a <gateway> bye`
    onAnnouncement(parts[1], parts[2]);
  }
}

async function primaryPosition(): Promise<bigint | undefined> {
  const c = new pg.Client({ connectionString: primaryUrl(), connectionTimeoutMillis: 2_000 });
  c.on('error', () => {});
  try {
    await c.connect();
    const { rows } = await c.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
    return parseLsn(rows[0]!.lsn);
  } finally {
    await c.end().catch(() => {});
  }
}

/** Starts listening (once per process); resolves when the first LISTEN is in place or after `timeoutMs`. */
export async function ensureWritePositions(timeoutMs = 0): Promise<boolean> {
  const s = state();
  if (!s.listener) {
    s.members.set(s.id, { acked: 0n, seenAt: Date.now() });
    const established = async (): Promise<void> => {
      // Whatever committed before this LISTEN and was not heard: cover it with a floor first,
      // and only then call the process listening.
      try {
        const lsn = await primaryPosition();
        if (lsn !== undefined) {
          s.floor = { lsn, at: Date.now() };
          if (lsn > s.heard) s.heard = lsn;
        }
        s.listening = true;
        s.markReady();
        void s.listener?.notify(WRITES_CHANNEL, `a ${s.id} ${formatLsn(s.heard)}`); // joins at once
        logger.info(
          { gateway: s.id, floor: lsn === undefined ? null : formatLsn(lsn) },
          'listening for write positions',
        );
      } catch (e) {
        logger.warn({ err: (e as Error).message }, 'write positions: could not read the primary position; retrying');
        setTimeout(() => void (s.listener && !s.listening && established()), 500).unref();
      }
    };
    s.listener = listen(primaryUrl(), WRITES_CHANNEL, onNotice, {
      retryMs: 500,
      applicationName: `${MEMBER_APP_PREFIX}${s.id}`,
      onListening: () => void established(),
      onDisconnect: () => {
        if (s.listening) logger.warn('write positions: notice channel lost; signed-in reads use the primary');
        s.listening = false;
        for (const w of s.waiters) w.resolve(false);
      },
    });
    s.timer = setInterval(() => {
      sweepPositions();
      sweepMembers();
      if (s.listening) void s.listener?.notify(WRITES_CHANNEL, `a ${s.id} ${formatLsn(s.heard)}`);
      if (s.listening && Date.now() - s.registryAt >= REGISTRY_REFRESH_MS) checkRegistry();
    }, HEARTBEAT_MS);
    s.timer.unref();
  }
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
  if (s.listening) await s.listener?.notify(WRITES_CHANNEL, `a ${s.id} bye`);
  await s.listener?.stop();
  s.listener = undefined;
  s.listening = false;
}

/** For tests that point the process at another database: stop, and forget everything. */
export async function resetWritePositions(): Promise<void> {
  const s = state();
  clearInterval(s.timer);
  clearTimeout(s.registryTimer);
  for (const w of s.waiters) w.resolve(false);
  await s.listener?.stop();
  resetProcessSingleton('write-positions');
}

/** Test aid: how many principals this process holds a position for, and how many gateways it waits for. */
export function writePositionStats(): { principals: number; gateways: number } {
  const s = state();
  return { principals: s.positions.size, gateways: s.members.size };
}
