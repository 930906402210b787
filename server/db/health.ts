// Health of the primary and of every region's replica as this gateway sees them: probes and lag.
// How lag is measured: docs/flows/reads-and-writes.md#replica-health
// What GET /health/region makes of it: health-report.ts; the primary's flush record: flush-history.ts
import { env } from '../env';
import { metrics } from '../telemetry/metrics';
import { logger } from '../telemetry/logger';
import { parseLsn } from './lsn';
import type pg from 'pg';
import { endProbePools, probePool } from './probe-pools';
import { primaryLocation } from './primary-locator';
import { RttWindow } from './rtt-window';
import { primaryUrl, replicaRegions, replicaUrl } from './topology';
import { processSingleton } from '../process-singletons';
import { clearFlushHistory, recordFlush, secondsBehind } from './flush-history';
import { replicaLag, replicaServing } from './replica-lag';
import type { PrimaryHealth, PrimaryRtt, ReplicaHealth, ReplicaProbeListener } from './health-types';

interface State {
  startedAt: number;
  listeners?: Set<ReplicaProbeListener>;
  primary: PrimaryHealth;
  /** Round trips of the primary probes since the primary last answered (cleared when it does not). */
  rtt?: RttWindow;
  rttAt?: number;
  replicas: Map<string, ReplicaHealth>;
  timer?: NodeJS.Timeout;
  probing?: Promise<void>;
}

const state = () =>
  processSingleton<State>('db-health', () => ({
    startedAt: Date.now(),
    primary: { up: true },
    replicas: new Map(),
  }));

/**
 * A multi-host primary (an HA pair) whose locator found a host after the last probe said the
 * primary was down: a failover's new primary, which a probe now would confirm.
 */
export function primaryFoundSinceProbe(): boolean {
  const at = primaryLocation(primaryUrl());
  return !!at?.current && (at.locatedAt ?? 0) > (state().primary.checkedAt ?? 0);
}

/**
 * Whether a write may go to the primary now: as the last probe said, except that a failover's new
 * primary, already found, is confirmed by one probe now rather than at the next interval.
 */
export async function primaryUpNow(): Promise<boolean> {
  if (state().primary.up) return true;
  if (!primaryFoundSinceProbe()) return false;
  await probeNow();
  return state().primary.up;
}

export function primaryHealth(): PrimaryHealth {
  return state().primary;
}

export function replicaHealth(region: string): ReplicaHealth {
  return state().replicas.get(region) ?? { region, status: 'unknown' };
}

export function allReplicaHealth(): ReplicaHealth[] {
  return replicaRegions().map(replicaHealth);
}

export function uptimeSeconds(): number {
  return (Date.now() - state().startedAt) / 1000;
}

/** Called when a query proves a server unreachable, so the next request doesn't wait for a probe. */
export function reportDown(target: 'primary' | string, error: string): void {
  if (target === 'primary') {
    const p = state().primary;
    state().primary = { ...p, up: false, error, checkedAt: Date.now(), downSince: p.downSince ?? Date.now() };
    metrics.primaryUp.set(0);
  } else {
    state().replicas.set(target, { ...replicaHealth(target), status: 'down', error, checkedAt: Date.now() });
    metrics.replicaUp.set({ region: target }, 0);
  }
  void probeNow();
}

/**
 * This process's round trip to the primary as its recent probes measured it (undefined before
 * the first answer, and from a failed probe until the next answer).
 */
export function primaryRtt(): PrimaryRtt | undefined {
  const s = state();
  const summary = s.rtt?.summary();
  return summary && s.rttAt !== undefined ? { ...summary, measuredAt: s.rttAt } : undefined;
}

/** The region label of this process's round-trip gauge: the region it serves, or `global`. */
const rttLabel = () => ({ region: env().MERIDIAN_GATEWAY_REGION });

async function probePrimary(): Promise<void> {
  const s = state();
  try {
    // The round trip is the query alone, on a connection already open: a connect (several round
    // trips, TLS) would be the link's cost times four, and only when the pool had none idle.
    const client = await probePool(primaryUrl()).connect();
    let r: pg.QueryResult<{ lsn: string; flush: string; timeline: number }>;
    const started = performance.now();
    try {
      r = await client.query<{ lsn: string; flush: string; timeline: number }>(
        `SELECT pg_current_wal_lsn()::text AS lsn, pg_current_wal_flush_lsn()::text AS flush,
                ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int AS timeline`,
      );
    } catch (e) {
      client.release(true);
      throw e;
    }
    const ms = performance.now() - started;
    client.release();
    (s.rtt ??= new RttWindow()).add(ms);
    s.rttAt = Date.now();
    metrics.primaryRttSeconds.set(rttLabel(), s.rtt.summary()!.medianMs / 1000);
    if (!state().primary.up) logger.warn('primary reachable again');
    const was = state().primary;
    state().primary = {
      lastOutage: was.downSince !== undefined ? { from: was.downSince, to: Date.now() } : was.lastOutage,
      up: true,
      lsn: parseLsn(r.rows[0]!.lsn),
      flushLsn: parseLsn(r.rows[0]!.flush),
      timeline: r.rows[0]!.timeline,
      checkedAt: Date.now(),
    };
    recordFlush(state().primary.checkedAt!, state().primary.flushLsn!);
  } catch (e) {
    if (state().primary.up) logger.error({ err: (e as Error).message }, 'primary unreachable');
    state().primary = {
      up: false,
      downSince: state().primary.downSince ?? Date.now(),
      lastOutage: state().primary.lastOutage,
      lsn: state().primary.lsn,
      timeline: state().primary.timeline,
      checkedAt: Date.now(),
      error: (e as Error).message,
    };
    // No round trip to report: the next answer (maybe over another path) starts a new window.
    s.rtt?.clear();
    s.rttAt = undefined;
    metrics.primaryRttSeconds.remove(rttLabel());
  }
  metrics.primaryUp.set(state().primary.up ? 1 : 0);
}

async function probeReplica(region: string): Promise<void> {
  const url = replicaUrl(region);
  if (!url) return;
  const e = env();
  const before = replicaHealth(region).status;
  let next: ReplicaHealth;
  try {
    const r = await probePool(url).query<{
      replay: string | null;
      received: string | null;
      ts_lag: number | null;
      recovery: boolean;
      tli: number | null;
    }>(
      `SELECT pg_last_wal_replay_lsn()::text AS replay, pg_last_wal_receive_lsn()::text AS received,
              EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp()))::float8 AS ts_lag,
              pg_is_in_recovery() AS recovery,
              (SELECT received_tli FROM pg_stat_wal_receiver) AS tli`,
    );
    const row = r.rows[0]!;
    const timeline = row.tli ?? replicaHealth(region).timeline;
    const primaryTimeline = state().primary.timeline;
    const replayLsn = row.replay ? parseLsn(row.replay) : undefined;
    const receiveLsn = row.received ? parseLsn(row.received) : undefined;
    const lag = replicaLag({
      replayLsn,
      receiveLsn,
      primaryFlushLsn: state().primary.up ? state().primary.flushLsn : undefined,
      othersReceived: [...state().replicas.values()]
        .filter((o) => o.region !== region && o.status !== 'down' && o.timeline === timeline)
        .map((o) => o.receiveLsn),
      replayTimestampLagSeconds: row.ts_lag,
      secondsBehind,
    });
    const { lagBytes, lagSeconds } = lag;
    const { status, oldTimeline } = replicaServing({
      recovery: row.recovery,
      timeline,
      primaryTimeline,
      lag,
      maxLagBytes: e.REPLICA_MAX_LAG_BYTES,
      maxLagSeconds: e.REPLICA_MAX_LAG_SECONDS,
    });
    next = {
      region,
      status,
      replayLsn,
      receiveLsn,
      lagBytes,
      lagSeconds,
      timeline,
      checkedAt: Date.now(),
      ...(oldTimeline
        ? { error: `on timeline ${timeline}, the primary on ${primaryTimeline}: not following the new primary yet` }
        : {}),
    };
  } catch (err) {
    next = {
      region,
      status: 'down',
      timeline: replicaHealth(region).timeline,
      checkedAt: Date.now(),
      error: (err as Error).message,
    };
  }
  if (next.status !== before && before !== 'unknown')
    logger.warn({ region, from: before, to: next.status }, 'replica status changed');
  state().replicas.set(region, next);
  metrics.replicaUp.set({ region }, next.status === 'down' ? 0 : 1);
  metrics.replicaServing.set({ region }, next.status === 'healthy' ? 1 : 0);
  if (next.lagBytes !== undefined) metrics.replicaLagBytes.set({ region }, next.lagBytes);
  if (next.lagSeconds !== undefined) metrics.replicaLagSeconds.set({ region }, next.lagSeconds);
  metrics.replicaLagLimitBytes.set(e.REPLICA_MAX_LAG_BYTES);
  metrics.replicaLagLimitSeconds.set(e.REPLICA_MAX_LAG_SECONDS);
  for (const listener of state().listeners ?? []) listener(next);
}

/** Registers `listener` for every replica probe from now on; returns the unregister function. */
export function onReplicaProbe(listener: ReplicaProbeListener): () => void {
  const s = state();
  (s.listeners ??= new Set()).add(listener);
  return () => s.listeners?.delete(listener);
}

/** One round of probes (primary first: replica lag is measured against its position). */
export function probeNow(): Promise<void> {
  return (state().probing ??= (async () => {
    try {
      await probePrimary();
      await Promise.all(replicaRegions().map(probeReplica));
    } finally {
      state().probing = undefined;
    }
  })());
}

/** Starts the probe loop once per process; resolves after the first round. */
export async function ensureHealthMonitor(): Promise<void> {
  if (state().timer) return;
  const interval = env().HEALTH_PROBE_INTERVAL_MS;
  const tick = () => {
    const timer = setTimeout(
      () => void probeNow().finally(tick),
      interval * (0.8 + Math.random() * 0.4), // jitter: gateways don't probe in lockstep
    );
    timer.unref();
    state().timer = timer;
  };
  tick();
  await probeNow();
}

/** For tests that restart servers: forget state and pools. */
export async function resetHealth(): Promise<void> {
  if (state().timer) clearTimeout(state().timer);
  state().timer = undefined;
  state().primary = { up: true };
  clearFlushHistory();
  state().rtt = undefined;
  state().rttAt = undefined;
  state().replicas.clear();
  await endProbePools();
}
