// Read-your-writes without the client's help ("sticky positions"): every gateway process keeps
// the WAL position of each principal's (API key's, signed-in user's) last write, and a read by
// that principal waits for it exactly like an echoed X-Meridian-Bookmark (server/db/access.ts).
//
// How a gateway learns positions: its own writes at once; everyone else's from a notice on the
// primary's `meridian_writes` channel (`w <principal> <lsn> <sent ms> <gateway>`), sent in the statement
// that reads the bookmark after the commit (no extra round trip). A notice alone would leave a
// race: the client can get its answer and reach another gateway before that gateway has heard
// (measured: 36 stale reads in 500 at a 50 ms replica delay on a busy 2-core machine). So every
// gateway acknowledges what it has heard (`a <gateway> <lsn>`, sent from its listening connection
// once its map holds the position), and the writer answers its client only when every live
// gateway has acknowledged its position (bounded by ACK_WAIT_MS). Membership: a gateway is live
// while it acknowledges or sends its heartbeat (every HEARTBEAT_MS, `a <gateway> <lsn>`) within
// MEMBER_TTL_MS; `a <gateway> bye` on a clean stop. Anyone who can connect can NOTIFY, so an
// announcement alone makes no member: the announced ID must also be the listening connection of
// a session of this gateway's own database role (its application_name, `meridian-writes <id>`,
// in pg_stat_activity), checked before any write waits for it and again every REGISTRY_REFRESH_MS. The race left: a gateway that takes longer than
// ACK_WAIT_MS to hear a notice (the writer answers anyway), or one that joined less than a
// heartbeat ago (covered by its floor, below).
//
// A principal that has not written in the last POSITION_TTL_MS costs one Map look-up: no query.
// While this process is not listening (starting up, the primary unreachable, the connection
// lost) it cannot know who wrote elsewhere: reads by signed-in principals then use the primary
// while it is up (`unknown`), and after every (re)connect the primary's position at that moment
// is a floor for everyone's reads for POSITION_TTL_MS, covering what was missed meanwhile.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { processSingleton, resetProcessSingleton } from '../process-singletons';
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
/** How long a write waits for every live gateway's acknowledgement before answering anyway. */
export const ACK_WAIT_MS = 100;
const HEARTBEAT_MS = 1_000;
/** A gateway not heard from for this long is no longer waited for. */
const MEMBER_TTL_MS = 3_000;
/** The listening connection's application_name, before the gateway's ID: how members are found. */
export const MEMBER_APP_PREFIX = 'meridian-writes ';
/** How often the members are checked against pg_stat_activity, announced or not. */
const REGISTRY_REFRESH_MS = 5_000;
/** At most one check this often, however many unknown IDs are announced (a flood costs little). */
const REGISTRY_MIN_GAP_MS = 250;
/** Unknown announced IDs held for the next check at most (the rest wait for their next heartbeat). */
const MAX_CANDIDATES = 1_000;
/** The gateways of this role listening now (the prefix is $1; LIKE would treat `_` as a wildcard). */
const REGISTRY_SQL = `
  SELECT substr(application_name, length($1) + 1) AS id FROM pg_stat_activity
  WHERE usename = current_user AND datname = current_database()
    AND left(application_name, length($1)) = $1`;

interface Position {
  lsn: bigint;
  at: number;
}

interface Member {
  acked: bigint;
  seenAt: number;
}

interface AckWaiter {
  lsn: bigint;
  resolve: (acknowledged: boolean) => void;
}

interface State {
  id: string;
  positions: Map<string, Position>;
  /** Every gateway listening on the channel (this one included), by id: registered ones only. */
  members: Map<string, Member>;
  /** Announced IDs not yet checked against the registry. */
  candidates: Map<string, Member>;
  /** The IDs of the last registry check, and when it answered. */
  registered: Set<string>;
  registryAt: number;
  registryRunning: boolean;
  registryTimer?: NodeJS.Timeout;
  waiters: Set<AckWaiter>;
  /** The newest position this process has heard a notice for (what it acknowledges). */
  heard: bigint;
  ackScheduled: boolean;
  listener?: Listener;
  listening: boolean;
  /** The primary's position when this process last (re)started listening. */
  floor?: Position;
  /** Resolves once the first LISTEN is in place (readiness waits for it). */
  ready: Promise<void>;
  markReady: () => void;
  timer?: NodeJS.Timeout;
}

const state = () =>
  processSingleton('write-positions', (): State => {
    let markReady!: () => void;
    const ready = new Promise<void>((r) => (markReady = r));
    return {
      id: randomBytes(6).toString('hex'),
      positions: new Map(),
      members: new Map(),
      candidates: new Map(),
      registered: new Set(),
      registryAt: 0,
      registryRunning: false,
      waiters: new Set(),
      heard: 0n,
      ackScheduled: false,
      listening: false,
      ready,
      markReady,
    };
  });

/** This gateway process's ID (random per process): also its row in routing_policy_gateways. */
export function gatewayId(): string {
  return state().id;
}

/** The principal a request acts as, for sticky positions: `key:<id>`, `user:<id>`, or none. */
export function principalOf(identity: { kind: string; keyId?: string; userId?: string }): string | undefined {
  if (identity.kind === 'api_key' && identity.keyId) return `key:${identity.keyId}`;
  if (identity.kind === 'session' && identity.userId) return `user:${identity.userId}`;
  return undefined;
}

function remember(principal: string, lsn: bigint, now = Date.now()): void {
  const s = state();
  const old = s.positions.get(principal);
  if (old && old.lsn >= lsn) return;
  s.positions.delete(principal); // re-insert: the map stays ordered by last write
  s.positions.set(principal, { lsn, at: now });
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
  for (const [id, m] of s.members) if (id !== s.id && now - m.seenAt > MEMBER_TTL_MS) s.members.delete(id);
  for (const [id, m] of s.candidates) if (now - m.seenAt > MEMBER_TTL_MS) s.candidates.delete(id);
  settleWaiters();
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

/** A notification a write sends once it has committed: a hint that carries no data (e.g. waking workers). */
export interface CommitHint {
  channel: string;
  payload: string;
}

/**
 * The statement that, right after a commit, reads the bookmark, tells every gateway the
 * principal's new position (`w <principal> <lsn> <sent ms> <gateway>`) and sends the write's
 * hint, if any: one round trip, its own tiny transaction, committed asynchronously (it carries
 * no data: a notice lost to a crash costs a read on the primary, a hint one queue poll).
 * Parameters: the principal or null, the time sent (ms since the epoch), this gateway's ID, the
 * hint's channel and payload or nulls. Named: each connection parses and plans it once.
 */
const BOOKMARK_STATEMENT = {
  name: 'meridian_bookmark',
  text:
    "SELECT set_config('synchronous_commit', 'off', true) AS _sc, l::text AS lsn, " +
    `CASE WHEN $1::text IS NOT NULL THEN pg_notify('${WRITES_CHANNEL}', 'w ' || $1 || ' ' || l::text || ' ' || $2 || ' ' || $3) END AS _n, ` +
    'CASE WHEN $4::text IS NOT NULL THEN pg_notify($4, $5) END AS _h FROM pg_current_wal_insert_lsn() l',
};

/** Runs BOOKMARK_STATEMENT on `pool` (the primary's): the position after the caller's commit. */
export async function commitPosition(
  pool: pg.Pool,
  principal: string | undefined,
  hint: CommitHint | undefined,
): Promise<bigint | undefined> {
  const { rows } = await pool.query<{ lsn: string }>({
    ...BOOKMARK_STATEMENT,
    values: [principal ?? null, String(Date.now()), state().id, hint?.channel ?? null, hint?.payload ?? null],
  });
  return parseLsn(rows[0]!.lsn);
}

/** Records this process's own write at once (the notice is for the other gateways). */
export function noteOwnWrite(principal: string, lsn: bigint): void {
  remember(principal, lsn);
}

/** Resolves every waiter whose position each live gateway has acknowledged. */
function settleWaiters(now = Date.now()): void {
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
function scheduleAck(): void {
  const s = state();
  if (s.ackScheduled) return;
  s.ackScheduled = true;
  setImmediate(() => {
    s.ackScheduled = false;
    void s.listener?.notify(WRITES_CHANNEL, `a ${s.id} ${formatLsn(s.heard)}`);
  });
}

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
    const [, id, what] = parts;
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
}

/**
 * Reads which gateway IDs have a listening connection of this role now: announced IDs found
 * there become members, members no longer there stop being waited for. One check at a time, at
 * most one per REGISTRY_MIN_GAP_MS; over the listening connection (no pool connection).
 */
function checkRegistry(): void {
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
      sweep();
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
