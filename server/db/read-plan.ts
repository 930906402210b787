// Where one read of a request runs: the read gate's steps (read-gate.ts) walked against the
// replicas' health and the caller's bookmark (docs/flows/reads-and-writes.md).
import { env } from '../env';
import { AppError } from '../errors';
import { metrics } from '../telemetry/metrics';
import { laterLsn } from './bookmark';
import { primary, replica, type Db } from './client';
import { primaryUnavailable } from './connection-errors';
import { ensureHealthMonitor, primaryHealth, probeNow, replicaHealth } from './health';
import {
  DEFAULT_READ_RULES,
  readGate,
  type GateCandidate,
  type GateReason,
  type GateStep,
  type ReplicaFacts,
} from './read-gate';
import { waitForReplay } from './replay-watch';
import { noteDecision, type DataRequest } from './request-state';
import { replicaRegions } from './topology';
import { ensureWritePositions } from './write-notices';
import { requiredPosition } from './write-positions';

/** The region whose replica serves this request's reads. */
export function readRegion(req: DataRequest): string | undefined {
  if (req.gatewayRegion !== 'global') return req.gatewayRegion;
  return req.region && req.region.source !== 'fan-out' && req.region.source !== 'gateway'
    ? req.region.region
    : undefined;
}

export interface ReadPlan {
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

/**
 * Walks the read gate's steps (read-gate.ts) for this request: the first that passes and, for a
 * replica, has replayed the caller's bookmark (bounded wait) serves.
 */
export async function planRead(req: DataRequest, region: string | undefined, probed = false): Promise<ReadPlan> {
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
  // Nothing can serve. Under local_only that is the region's replica not serving (or not yet
  // having the caller's write): a retryable 503 from the region, never a read across the WAN.
  if (tried.some((c) => c.dropped === 'local_only')) {
    noteDecision(req, { kind: 'read', region, target: null, reason: 'local_only', candidates: tried });
    throw new AppError(
      'region_unavailable',
      `reads stay in ${region} under this organization’s routing policy (local_only), and its replica ` +
        `cannot serve this read right now (${firstDrop ?? 'no_replica'}): retry shortly`,
      { retryAfter: 1, extra: { region, reason: firstDrop ?? 'no_replica' } },
    );
  }
  // A caller that asked to read at least its own write, which only the primary (down) holds,
  // gets primary_unavailable: a stale answer would break that promise.
  const needsPrimary = tried.some((c) => c.dropped === 'bookmark_not_replayed');
  if (!primaryUp && !probed && (needsPrimary || bookmark !== undefined)) {
    // Before refusing: the primary may be back, or another one found (a failover), since it was
    // last seen down (by a probe, or by a request's failed query). One probe now, shared by every
    // request waiting on it, then plan again.
    await probeNow();
    if (primaryHealth().up) return planRead(req, region, true);
  }
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

export function recordServedBy(req: DataRequest, plan: ReadPlan): void {
  // With several reads in one request, report the least fresh source and the first degradation.
  if (!req.consistency.servedBy || plan.servedBy !== 'primary') req.consistency.servedBy = plan.servedBy;
  req.consistency.degraded ??= plan.degraded;
  metrics.reads.inc({ served_by: plan.servedBy, degraded: plan.degraded ?? '' });
}
