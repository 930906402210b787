// Where a request's queries run, as the read and write gates (read-gate.ts) decide under the
// request's routing rules (its organization's policy; the defaults otherwise). Writes: the
// primary, in a transaction, and only there; afterwards the caller gets a causal bookmark (the
// primary's WAL insert position after commit). Reads: the replica of the gateway's region (or
// of the resolved region at the global address) while it passes the gate, and only once it has
// replayed the caller's bookmark (bounded wait); otherwise what the policy's mode allows (the
// standby's replica, the primary), marked degraded when that is because of a failure. Primary
// down: writes fail fast with 503 primary_unavailable + Retry-After; reads go on from the
// region's replica (except one whose bookmark the replica has not replayed: only the primary
// could answer it, so it is a 503 too). Every decision is noted on the request (its record).
import { env } from '../env';
import { AppError } from '../errors';
import { metrics } from '../telemetry/metrics';
import { laterLsn } from './bookmark';
import { waitForReplay } from './replay-watch';
import {
  DEFAULT_READ_RULES,
  readGate,
  writeGate,
  type GateCandidate,
  type GateDecision,
  type GateReason,
  type GateStep,
  type ReplicaFacts,
} from './read-gate';
import type { DataRequest } from './request-state';
import { poolOf, primary, replica, type Db } from './client';
import { ensureHealthMonitor, primaryHealth, replicaHealth, reportDown } from './health';
import { replicaRegions } from './topology';
import {
  acknowledged,
  commitPosition,
  ensureWritePositions,
  noteOwnWrite,
  requiredPosition,
  type CommitHint,
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

function replicaFacts(): Map<string, ReplicaFacts> {
  const facts = new Map<string, ReplicaFacts>();
  for (const r of replicaRegions()) {
    const h = replicaHealth(r);
    facts.set(r, { status: h.status, lagSeconds: h.lagSeconds, checkedAt: h.checkedAt });
  }
  return facts;
}

/** Records one gate decision on the request (capped: a fan-out reads once per region). */
function noteDecision(req: DataRequest, decision: GateDecision): void {
  const routing = req.routing;
  if (!routing) return;
  if (routing.decisions.length < MAX_DECISIONS) routing.decisions.push(decision);
}
const MAX_DECISIONS = 16;

/**
 * Walks the read gate's steps (read-gate.ts) for this request: the first that passes and, for a
 * replica, has replayed the caller's bookmark (bounded wait) serves.
 */
async function planRead(req: DataRequest, region: string | undefined): Promise<ReadPlan> {
  await ensureHealthMonitor();
  if (req.principal) void ensureWritePositions();
  const primaryUp = primaryHealth().up;
  // The caller's bookmark, or the position of its own last write wherever it happened (sticky
  // positions: one Map look-up for a principal that has not written).
  const sticky = requiredPosition(req.principal);
  const bookmark = typeof sticky === 'bigint' ? laterLsn(req.consistency.bookmark, sticky) : req.consistency.bookmark;
  const steps = readGate({
    rules: req.routing?.rules ?? DEFAULT_READ_RULES,
    region: region && replica(region) ? region : undefined,
    replicas: replicaFacts(),
    primaryUp,
    now: Date.now(),
    stateless: bookmark === undefined && sticky === undefined,
  });
  const tried: GateCandidate[] = [];
  let firstDrop: GateReason | undefined;
  const drop = (step: GateStep, why: GateReason) => {
    tried.push({
      target: step.target,
      chosen: false,
      dropped: why,
      lag_ms: step.lagMs,
      signal_age_ms: step.signalAgeMs,
    });
    firstDrop ??= why;
  };
  for (const step of steps) {
    if (!step.ok) {
      drop(step, step.dropped!);
      continue;
    }
    if (step.target !== 'primary') {
      const r = step.target.slice('replica:'.length);
      if (sticky === 'unknown' && primaryUp) {
        // This process cannot hear other gateways' writes right now: only the primary is surely fresh.
        metrics.stickyReads.inc({ outcome: 'unknown' });
        drop(step, 'sticky_unknown');
        continue;
      }
      if (typeof sticky === 'bigint' && sticky !== req.consistency.bookmark)
        metrics.stickyReads.inc({ outcome: 'wait' });
      if (bookmark !== undefined && !(await waitForBookmark(r, bookmark))) {
        drop(step, 'bookmark_not_replayed');
        continue;
      }
    }
    const reason: GateReason =
      step.target === 'primary'
        ? (firstDrop ?? step.reason)
        : !primaryUp && step.reason === 'replica_ok'
          ? 'primary_down_replica'
          : step.reason;
    // Reads go on while the primary is down, but say so: writes would fail right now.
    const degraded =
      step.target === 'primary'
        ? firstDrop === 'bookmark_not_replayed' || firstDrop === 'sticky_unknown'
          ? undefined // normal: the caller's own write is not on the replica yet
          : step.degraded
        : (step.degraded ?? (primaryUp ? undefined : 'primary_down'));
    tried.push({ target: step.target, chosen: true, lag_ms: step.lagMs, signal_age_ms: step.signalAgeMs });
    noteDecision(req, {
      kind: 'read',
      region,
      target: step.target,
      reason,
      candidates: tried,
      lagMs: step.lagMs,
      signalAgeMs: step.signalAgeMs,
    });
    return {
      db: step.target === 'primary' ? primary() : replica(step.target.slice('replica:'.length))!,
      servedBy: step.target,
      degraded,
    };
  }
  // Nothing can serve. A caller that asked to read at least its own write, which only the
  // primary (down) holds, gets primary_unavailable: a stale answer would break that promise.
  const needsPrimary = tried.some((c) => c.dropped === 'bookmark_not_replayed');
  noteDecision(req, {
    kind: 'read',
    region,
    target: null,
    reason: needsPrimary ? 'primary_down' : 'no_candidate',
    candidates: tried,
  });
  if (needsPrimary || (bookmark !== undefined && !primaryUp)) throw primaryUnavailable();
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
    // The database the gate chose is gone: say so to the health monitor and ask the gate once
    // more (it now sees that database down).
    reportDown(plan.servedBy === 'primary' ? 'primary' : plan.servedBy.slice('replica:'.length), (e as Error).message);
    let again: ReadPlan;
    try {
      again = await planRead(req, region);
    } catch (refused) {
      if (refused instanceof AppError) refused.cause ??= e;
      throw refused;
    }
    return answered(again, await fn(again.db));
  }
}

/**
 * The primary's WAL insert position: taken after a commit, it covers that commit. On the app's
 * own pool (never the health probes', which a burst of writes would starve). The same statement
 * tells every gateway the principal's new position (server/db/write-positions.ts) and sends the
 * write's commit hint, if it has one.
 */
async function primaryInsertLsn(
  principal: string | undefined,
  hint: CommitHint | undefined,
): Promise<bigint | undefined> {
  try {
    const lsn = await commitPosition(poolOf(primary()), principal, hint);
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
  const gate = writeGate(primaryHealth().up);
  const decide = (ok: boolean) =>
    noteDecision(req, {
      kind: 'write',
      region: req.region?.region,
      target: ok ? 'primary' : null,
      reason: ok ? 'write_primary' : 'primary_down',
      candidates: [{ target: 'primary', chosen: ok, ...(ok ? {} : { dropped: 'primary_down' as const }) }],
    });
  if (!gate.ok) {
    decide(false);
    throw primaryUnavailable();
  }
  let out: T;
  try {
    out = await run();
  } catch (e) {
    if (isConnectionError(e)) {
      reportDown('primary', (e as Error).message);
      decide(false);
      throw primaryUnavailable(e);
    }
    decide(true);
    throw e;
  }
  decide(true);
  // Committed. From here on nothing may report failure.
  const hint = req.consistency.commitHint;
  req.consistency.commitHint = undefined;
  const lsn = await primaryInsertLsn(req.principal, hint);
  req.consistency.newBookmark = laterLsn(req.consistency.newBookmark, lsn);
  req.consistency.bookmark = laterLsn(req.consistency.bookmark, lsn); // later reads in this request see it too
  req.consistency.servedBy ??= 'primary';
  return out;
}
