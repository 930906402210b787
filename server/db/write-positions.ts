// Read-your-writes without the client's help ("sticky positions"): every gateway process keeps
// the WAL position of each principal's (API key's, signed-in user's) last write, and a read by
// that principal waits for it exactly like an echoed X-Meridian-Bookmark (server/db/access.ts).
// A gateway learns positions from its own writes at once, and from every other gateway (any
// region, any process) through one NOTIFY on `meridian_writes`, sent in the same statement that
// reads the bookmark after the commit, so it costs no extra round trip. PostgreSQL signals every
// listener at that NOTIFY's commit, before the writer's client hears back, so by the time a client
// has its answer and sends the next request to another gateway, the notice is already on its way
// there (measured race: see README "Production", read-your-writes across gateways).
//
// A principal that has not written in the last POSITION_TTL_MS costs one Map look-up: no query.
// While this process is not listening (starting up, the primary unreachable, the connection
// lost) it cannot know who wrote elsewhere: reads by signed-in principals then use the primary
// while it is up (`unknown`), and after every (re)connect the primary's position at that moment
// is a floor for everyone's reads for POSITION_TTL_MS, covering what was missed meanwhile.
import pg from 'pg';
import { processSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';
import { metrics } from '../telemetry/metrics';
import { listen, type Listener } from './listen';
import { formatLsn, parseLsn } from './lsn';
import { primaryUrl } from './topology';

export const WRITES_CHANNEL = 'meridian_writes';

/**
 * How long a principal's position is kept. A replica that falls this far behind has long been
 * taken out of reads (REPLICA_MAX_LAG_SECONDS, 1 s by default), so an older position can never
 * make a healthy replica's read stale.
 */
export const POSITION_TTL_MS = 30_000;
/** Positions held at most (the oldest go first): bounds memory under a flood of principals. */
const MAX_PRINCIPALS = 200_000;

interface Position {
  lsn: bigint;
  at: number;
  /** The newest position heard on the notice channel (a writer's own notice comes back too). */
  heard?: bigint;
}

interface EchoWaiter {
  lsn: bigint;
  resolve: (heard: boolean) => void;
}

interface State {
  positions: Map<string, Position>;
  /** Writes of this process waiting to hear their own notice back, by principal. */
  echoes: Map<string, Set<EchoWaiter>>;
  listener?: Listener;
  listening: boolean;
  /** The primary's position when this process last (re)started listening. */
  floor?: Position;
  /** Resolves once the first LISTEN is in place (readiness waits for it). */
  ready: Promise<void>;
  markReady: () => void;
  sweep?: NodeJS.Timeout;
}

const state = () =>
  processSingleton('write-positions', (): State => {
    let markReady!: () => void;
    const ready = new Promise<void>((r) => (markReady = r));
    return { positions: new Map(), echoes: new Map(), listening: false, ready, markReady };
  });

/** The principal a request acts as, for sticky positions: `key:<id>`, `user:<id>`, or none. */
export function principalOf(identity: { kind: string; keyId?: string; userId?: string }): string | undefined {
  if (identity.kind === 'api_key' && identity.keyId) return `key:${identity.keyId}`;
  if (identity.kind === 'session' && identity.userId) return `user:${identity.userId}`;
  return undefined;
}

function remember(principal: string, lsn: bigint, heard: boolean, now = Date.now()): void {
  const s = state();
  const old = s.positions.get(principal);
  const heardLsn = heard && (old?.heard === undefined || lsn > old.heard) ? lsn : old?.heard;
  if (old && old.lsn >= lsn) {
    old.heard = heardLsn;
    return;
  }
  s.positions.delete(principal); // re-insert: the map stays ordered by last write
  s.positions.set(principal, { lsn, at: now, heard: heardLsn });
  if (s.positions.size > MAX_PRINCIPALS) s.positions.delete(s.positions.keys().next().value!);
}

/** Drops positions older than the TTL (the map is ordered by last write: stop at the first young one). */
function sweep(now = Date.now()): void {
  const s = state();
  for (const [p, pos] of s.positions) {
    if (now - pos.at < POSITION_TTL_MS) break;
    s.positions.delete(p);
  }
  if (s.floor && now - s.floor.at >= POSITION_TTL_MS) s.floor = undefined;
}

/**
 * The position a read by `principal` must see: a bigint to wait for, `unknown` when this process
 * cannot tell (not listening: read from the primary), or undefined (nothing to wait for).
 * One Map look-up; never a query.
 */
export function requiredPosition(principal: string | undefined): bigint | 'unknown' | undefined {
  if (principal === undefined) return undefined;
  const s = state();
  if (!s.listening) return 'unknown';
  const now = Date.now();
  const own = s.positions.get(principal);
  const mine = own && now - own.at < POSITION_TTL_MS ? own.lsn : undefined;
  const floor = s.floor && now - s.floor.at < POSITION_TTL_MS ? s.floor.lsn : undefined;
  if (mine === undefined) return floor;
  return floor === undefined || mine > floor ? mine : floor;
}

/**
 * The SQL that, right after a principal's commit, reads the bookmark and tells every gateway:
 * one statement, its own tiny transaction (committed asynchronously: it carries no data).
 */
export const BOOKMARK_AND_NOTICE_SQL =
  "SELECT set_config('synchronous_commit', 'off', true) AS _sc, l::text AS lsn, " +
  `pg_notify('${WRITES_CHANNEL}', $1 || ' ' || l::text || ' ' || $2) AS _n FROM pg_current_wal_insert_lsn() l`;

/** Records this process's own write at once (the broadcast is for the other gateways). */
export function noteOwnWrite(principal: string, lsn: bigint): void {
  remember(principal, lsn, false);
}

/**
 * Resolves once this process has heard its own notice for `principal` at `lsn` back (true), or
 * after `timeoutMs`, or at once when not listening (false). The writer answers its client only
 * then: PostgreSQL signals every listener at the same commit, so by then the other gateways'
 * connections have been told too, and the race left is only how much later another listener's
 * backend and process get scheduled than ours (README, Production).
 */
export function heardBack(principal: string, lsn: bigint, timeoutMs: number): Promise<boolean> {
  const s = state();
  if (!s.listening) return Promise.resolve(false);
  const heard = s.positions.get(principal)?.heard;
  if (heard !== undefined && heard >= lsn) return Promise.resolve(true);
  return new Promise((resolve) => {
    let set = s.echoes.get(principal);
    if (!set) s.echoes.set(principal, (set = new Set()));
    const waiter: EchoWaiter = {
      lsn,
      resolve: (heard) => {
        clearTimeout(timer);
        set.delete(waiter);
        if (set.size === 0 && s.echoes.get(principal) === set) s.echoes.delete(principal);
        resolve(heard);
      },
    };
    const timer = setTimeout(() => waiter.resolve(false), timeoutMs);
    set.add(waiter);
  });
}

function onNotice(payload: string): void {
  // `<principal> <lsn> <sent at, ms since epoch>`
  const [principal, lsnText, sentAt] = payload.split(' ');
  const lsn = lsnText ? parseLsn(lsnText) : undefined;
  if (!principal || lsn === undefined) return;
  remember(principal, lsn, true);
  const waiting = state().echoes.get(principal);
  if (waiting) for (const w of waiting) if (lsn >= w.lsn) w.resolve(true);
  const sent = Number(sentAt);
  if (Number.isFinite(sent) && sent > 0) metrics.writeNoticeDelaySeconds.observe(Math.max(0, Date.now() - sent) / 1000);
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
    s.listener = listen(primaryUrl(), WRITES_CHANNEL, onNotice, {
      retryMs: 500,
      onListening: () => {
        // Whatever committed before this LISTEN and was not heard: cover it with a floor first,
        // and only then call the process listening.
        primaryPosition()
          .then((lsn) => {
            if (lsn !== undefined) s.floor = { lsn, at: Date.now() };
            s.listening = true;
            s.markReady();
            logger.info({ floor: lsn === undefined ? null : formatLsn(lsn) }, 'listening for write positions');
          })
          .catch((e: unknown) => {
            // Could not read the floor: stay `unknown` (reads use the primary) until the next reconnect.
            logger.warn({ err: (e as Error).message }, 'write positions: could not read the primary position');
          });
      },
      onDisconnect: () => {
        if (s.listening) logger.warn('write positions: notice channel lost; signed-in reads use the primary');
        s.listening = false;
      },
    });
    s.sweep = setInterval(() => sweep(), 5_000);
    s.sweep.unref();
  }
  if (s.listening || timeoutMs <= 0) return s.listening;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([s.ready, new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
  clearTimeout(timer);
  return s.listening;
}

/** Whether this process currently hears other gateways' writes (readiness). */
export function writePositionsListening(): boolean {
  return state().listening;
}

/** For tests and shutdown. */
export async function stopWritePositions(): Promise<void> {
  const s = state();
  clearInterval(s.sweep);
  await s.listener?.stop();
  s.listener = undefined;
  s.listening = false;
}

/** Test aid: how many principals this process holds a position for. */
export function heldPositions(): number {
  return state().positions.size;
}
