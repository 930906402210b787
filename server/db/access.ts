// Where a request's queries run. Writes: the primary, in a transaction; afterwards the caller
// gets a causal bookmark (the primary's WAL insert position after commit). Reads: the replica
// of the gateway's region (or of the resolved region at the global address), but only once it
// has replayed the caller's bookmark (bounded wait), and only while it is healthy; otherwise
// the primary, marked degraded when that is because of a failure. Primary down: writes fail
// fast with 503 primary_unavailable + Retry-After; reads go on from replicas (except one whose
// bookmark the replica has not replayed: only the primary could answer it, so it is a 503 too).
import { env } from '../env';
import { AppError } from '../errors';
import { metrics } from '../telemetry/metrics';
import { laterLsn } from './bookmark';
import { parseLsn } from './lsn';
import { waitForReplay } from './replay-watch';
import type { DataRequest } from './request-state';
import { poolOf, primary, replica, type Db } from './client';
import { ensureHealthMonitor, primaryHealth, replicaHealth, reportDown } from './health';
import { replicaRegions } from './topology';
import {
  acknowledged,
  BOOKMARK_AND_NOTICE_SQL,
  ensureWritePositions,
  noteOwnWrite,
  requiredPosition,
} from './write-positions';

export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  'P1001',
  'P1017',
  'P2024',
]);
const CONNECTION_TEXT =
  /ECONNREFUSED|ECONNRESET|Connection terminated|terminating connection|connection (is )?closed|the database system is (shutting down|starting up|in recovery)|Can't reach database|Server has closed the connection|DatabaseNotReachable|Timed out fetching a new connection/i;

/** Whether an error means "the database could not be reached", as opposed to a query failing. */
export function isConnectionError(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 5) return false;
  const err = e as { code?: unknown; message?: unknown; cause?: unknown; kind?: unknown; originalCode?: unknown };
  if (typeof err.code === 'string' && CONNECTION_CODES.has(err.code)) return true;
  if (typeof err.originalCode === 'string' && CONNECTION_CODES.has(err.originalCode)) return true;
  if (err.kind === 'DatabaseNotReachable' || err.kind === 'ConnectionClosed') return true;
  if (typeof err.message === 'string' && CONNECTION_TEXT.test(err.message)) return true;
  return isConnectionError(err.cause, depth + 1);
}

export function primaryUnavailable(cause?: unknown): AppError {
  const retryAfter = env().PRIMARY_RETRY_AFTER_SECONDS;
  return new AppError(
    'primary_unavailable',
    'the primary database is unavailable: nothing was changed, retry shortly',
    {
      retryAfter,
      cause,
    },
  );
}

/** The region whose replica serves this request's reads. */
export function readRegion(req: DataRequest): string | undefined {
  if (req.gatewayRegion !== 'global') return req.gatewayRegion;
  return req.region && req.region.source !== 'fan-out' && req.region.source !== 'gateway'
    ? req.region.region
    : undefined;
}

interface ReadPlan {
  db: Db;
  servedBy: string;
  degraded?: string;
}

function onPrimary(degraded?: string): ReadPlan {
  return { db: primary(), servedBy: 'primary', degraded };
}

/** Any healthy replica other than `except`, for when both a region's replica and the primary are gone. */
function otherReplica(except?: string): ReadPlan | undefined {
  for (const r of replicaRegions()) {
    if (r !== except && replicaHealth(r).status === 'healthy') return { db: replica(r)!, servedBy: `replica:${r}` };
  }
  return undefined;
}

/**
 * A healthy replica (not `except`) that has replayed `required`, for a read the primary can't
 * serve; without a requirement, any healthy one. Undefined when none has it: a caller that wrote
 * (bookmark or sticky position) must not be answered from before its own write.
 */
async function freshReplica(except: string | undefined, required: bigint | undefined): Promise<ReadPlan | undefined> {
  if (required === undefined) return otherReplica(except);
  const healthy = replicaRegions().filter((r) => r !== except && replicaHealth(r).status === 'healthy');
  const known = healthy.find((r) => (replicaHealth(r).replayLsn ?? 0n) >= required);
  const pick = known ?? healthy[0];
  if (pick === undefined || !(known || (await waitForBookmark(pick, required)))) return undefined;
  return { db: replica(pick)!, servedBy: `replica:${pick}` };
}

/** What a read by this request must see: its bookmark, or its principal's last write if later. */
function requiredLsn(req: DataRequest): bigint | undefined {
  const sticky = requiredPosition(req.principal);
  return typeof sticky === 'bigint' ? laterLsn(req.consistency.bookmark, sticky) : req.consistency.bookmark;
}

async function waitForBookmark(region: string, bookmark: bigint): Promise<boolean> {
  const known = replicaHealth(region).replayLsn;
  if (known !== undefined && known >= bookmark) {
    metrics.bookmarkWaitSeconds.observe({ outcome: 'replica' }, 0); // the last probe already saw it
    return true;
  }
  const started = performance.now();
  const reached = await waitForReplay(region, bookmark, env().BOOKMARK_WAIT_MS);
  metrics.bookmarkWaitSeconds.observe(
    { outcome: reached ? 'replica' : 'primary' },
    (performance.now() - started) / 1000,
  );
  return reached;
}

async function planRead(req: DataRequest, region: string | undefined): Promise<ReadPlan> {
  await ensureHealthMonitor();
  if (req.principal) void ensureWritePositions();
  const primaryUp = primaryHealth().up;
  if (!region || !replica(region)) {
    if (primaryUp) return onPrimary();
    return { ...(await fallbackReplica(req, undefined)), degraded: 'primary_down' };
  }
  const health = replicaHealth(region);
  if (health.status === 'down') {
    if (primaryUp) return onPrimary('replica_down');
    return { ...(await fallbackReplica(req, region)), degraded: 'replica_down' };
  }
  if (health.status === 'lagging') {
    if (primaryUp) return onPrimary('replica_lagging');
    return { db: replica(region)!, servedBy: `replica:${region}`, degraded: 'primary_down' };
  }
  // The caller's bookmark, or the position of its own last write wherever it happened (sticky
  // positions: one Map look-up for a principal that has not written).
  const sticky = requiredPosition(req.principal);
  if (sticky === 'unknown' && primaryUp) {
    metrics.stickyReads.inc({ outcome: 'unknown' });
    return onPrimary(); // this process cannot hear other gateways' writes right now
  }
  const bookmark = typeof sticky === 'bigint' ? laterLsn(req.consistency.bookmark, sticky) : req.consistency.bookmark;
  if (typeof sticky === 'bigint' && sticky !== req.consistency.bookmark) metrics.stickyReads.inc({ outcome: 'wait' });
  if (bookmark !== undefined && !(await waitForBookmark(region, bookmark))) {
    // Not there yet: the primary has it. Normal, not degraded.
    if (primaryUp) return onPrimary();
    // The caller asked to read at least its own write (the bookmark's promise), which only the
    // primary holds: a stale answer would break that promise, so this is a 503 to retry.
    throw primaryUnavailable();
  }
  // Reads go on while the primary is down, but say so: writes would fail right now.
  return { db: replica(region)!, servedBy: `replica:${region}`, degraded: primaryUp ? undefined : 'primary_down' };
}

/** Another replica for a read the primary can't serve, never one from before the caller's own write. */
async function fallbackReplica(req: DataRequest, region: string | undefined): Promise<ReadPlan> {
  const required = requiredLsn(req);
  const plan = await freshReplica(region, required);
  if (plan) return plan;
  if (required !== undefined) throw primaryUnavailable(); // a replica has it soon, or the primary again
  return unavailable(region);
}

function unavailable(region?: string): never {
  throw new AppError('region_unavailable', `no database can serve ${region ?? 'this'} read right now`, {
    retryAfter: 5,
  });
}

function recordServedBy(req: DataRequest, plan: ReadPlan): void {
  // With several reads in one request, report the least fresh source and the first degradation.
  if (!req.consistency.servedBy || plan.servedBy !== 'primary') req.consistency.servedBy = plan.servedBy;
  req.consistency.degraded ??= plan.degraded;
  metrics.reads.inc({ served_by: plan.servedBy, degraded: plan.degraded ?? '' });
}

/** Runs a read on the right database for this request (see the file's header). */
export async function read<T>(req: DataRequest, fn: (db: Db) => Promise<T>, region = readRegion(req)): Promise<T> {
  return (await readFrom(req, fn, region)).value;
}

/** `read`, also saying which database answered (`primary` or `replica:<region>`). */
export async function readFrom<T>(
  req: DataRequest,
  fn: (db: Db) => Promise<T>,
  region = readRegion(req),
): Promise<{ value: T; servedBy: string }> {
  const plan = await planRead(req, region);
  const answered = (p: ReadPlan, value: T) => {
    recordServedBy(req, p);
    return { value, servedBy: p.servedBy };
  };
  try {
    return answered(plan, await fn(plan.db));
  } catch (e) {
    if (!isConnectionError(e)) throw e;
    if (plan.servedBy === 'primary') {
      reportDown('primary', (e as Error).message);
      const fallback = await freshReplica(region, requiredLsn(req));
      if (!fallback) throw primaryUnavailable(e);
      return answered({ ...fallback, degraded: 'primary_down' }, await fn(fallback.db));
    }
    reportDown(region!, (e as Error).message);
    if (!primaryHealth().up)
      throw new AppError('region_unavailable', 'no database can serve this read right now', {
        retryAfter: 5,
        cause: e,
      });
    return answered(onPrimary('replica_down'), await fn(primary()));
  }
}

/**
 * The primary's WAL insert position: taken after a commit, it covers that commit. On the app's
 * own pool (never the health probes', which a burst of writes would starve). With a principal,
 * the same statement tells every gateway its new position (server/db/write-positions.ts).
 */
async function primaryInsertLsn(principal: string | undefined): Promise<bigint | undefined> {
  try {
    const { rows } = principal
      ? await poolOf(primary()).query<{ lsn: string }>(BOOKMARK_AND_NOTICE_SQL, [principal, String(Date.now())])
      : await poolOf(primary()).query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
    const lsn = parseLsn(rows[0]!.lsn);
    if (principal && lsn !== undefined) {
      noteOwnWrite(principal, lsn);
      // Answer only once every live gateway holds this position (write-positions.ts): what
      // closes the race between this answer reaching the client and the notice reaching the
      // gateway the client asks next.
      const t = performance.now();
      const acked = await acknowledged(lsn);
      metrics.writeAckWaitSeconds.observe({ acknowledged: String(acked) }, (performance.now() - t) / 1000);
    }
    return lsn;
  } catch {
    return undefined;
  }
}

/** Runs `fn` in one transaction on the primary; on success the caller gets a newer bookmark. */
export async function write<T>(req: DataRequest, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return committed(req, () => primary().$transaction(fn, { maxWait: 2_000, timeout: 15_000 }));
}

/**
 * `write` for a change made by ONE statement on the primary (atomic by itself, so no
 * interactive transaction: no BEGIN and COMMIT round trips). `fn` must send exactly one
 * statement; on success the caller gets a newer bookmark.
 */
export async function writeStatement<T>(req: DataRequest, fn: (db: Db) => Promise<T>): Promise<T> {
  return committed(req, () => fn(primary()));
}

async function committed<T>(req: DataRequest, run: () => Promise<T>): Promise<T> {
  await ensureHealthMonitor();
  if (req.principal) void ensureWritePositions();
  if (!primaryHealth().up) throw primaryUnavailable();
  let out: T;
  try {
    out = await run();
  } catch (e) {
    if (isConnectionError(e)) {
      reportDown('primary', (e as Error).message);
      throw primaryUnavailable(e);
    }
    throw e;
  }
  // Committed. From here on nothing may report failure.
  const lsn = await primaryInsertLsn(req.principal);
  req.consistency.newBookmark = laterLsn(req.consistency.newBookmark, lsn);
  req.consistency.bookmark = laterLsn(req.consistency.bookmark, lsn); // later reads in this request see it too
  req.consistency.servedBy ??= 'primary';
  return out;
}
