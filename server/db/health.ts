// Health of the primary and of every region's replica as this gateway sees them: probes and lag.
// How lag is measured: docs/flows/reads-and-writes.md#replica-health
import pg from 'pg';
import { env } from '../env';
import { metrics } from '../telemetry/metrics';
import { logger } from '../telemetry/logger';
import { parseLsn } from './lsn';
import { primaryUrl, replicaRegions, replicaUrl } from './topology';
import { processSingleton } from '../process-singletons';

export type ReplicaStatus = 'healthy' | 'lagging' | 'down' | 'unknown';

export interface ReplicaHealth {
  region: string;
  status: ReplicaStatus;
  replayLsn?: bigint;
  lagBytes?: number;
  lagSeconds?: number;
  checkedAt?: number;
  error?: string;
  /** Since when (ms) the replica has continuously held received-but-unreplayed WAL. */
  behindSince?: number;
}

export interface PrimaryHealth {
  up: boolean;
  lsn?: bigint;
  /** pg_current_wal_flush_lsn(): replicas can only have received WAL up to here, so lag is counted
   * against it (WAL written but not yet flushed, e.g. without a commit, is no replica's lag). */
  flushLsn?: bigint;
  checkedAt?: number;
  error?: string;
}

/** Called after every probe of a replica (Atlas debounces lag from it). */
export type ReplicaProbeListener = (health: ReplicaHealth) => void;

/** The primary's flushed position as probes saw it, oldest first (secondsBehind reads it). */
interface FlushMark {
  at: number;
  lsn: bigint;
}
const FLUSH_HISTORY_MS = 15 * 60_000;

interface State {
  startedAt: number;
  flushHistory?: FlushMark[];
  listeners?: Set<ReplicaProbeListener>;
  primary: PrimaryHealth;
  replicas: Map<string, ReplicaHealth>;
  pools: Map<string, pg.Pool>;
  timer?: NodeJS.Timeout;
  probing?: Promise<void>;
}

const state = () =>
  processSingleton<State>('db-health', () => ({
    startedAt: Date.now(),
    primary: { up: true },
    replicas: new Map(),
    pools: new Map(),
  }));

/** A small pool for probes and LSN checks: short timeouts, never the app's query pool. */
export function probePool(url: string): pg.Pool {
  let pool = state().pools.get(url);
  if (!pool) {
    pool = new pg.Pool({
      connectionString: url,
      max: 3,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 1_000,
      statement_timeout: 1_000,
      query_timeout: 1_500,
    });
    pool.on('error', () => {}); // a dying server must not crash the process; probes report it
    state().pools.set(url, pool);
  }
  return pool;
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
    state().primary = { ...state().primary, up: false, error, checkedAt: Date.now() };
    metrics.primaryUp.set(0);
  } else {
    state().replicas.set(target, { ...replicaHealth(target), status: 'down', error, checkedAt: Date.now() });
    metrics.replicaUp.set({ region: target }, 0);
  }
  void probeNow();
}

async function probePrimary(): Promise<void> {
  try {
    const r = await probePool(primaryUrl()).query<{ lsn: string; flush: string }>(
      'SELECT pg_current_wal_lsn()::text AS lsn, pg_current_wal_flush_lsn()::text AS flush',
    );
    if (!state().primary.up) logger.warn('primary reachable again');
    state().primary = {
      up: true,
      lsn: parseLsn(r.rows[0]!.lsn),
      flushLsn: parseLsn(r.rows[0]!.flush),
      checkedAt: Date.now(),
    };
    recordFlush(state().primary.checkedAt!, state().primary.flushLsn!);
  } catch (e) {
    if (state().primary.up) logger.error({ err: (e as Error).message }, 'primary unreachable');
    state().primary = { up: false, lsn: state().primary.lsn, checkedAt: Date.now(), error: (e as Error).message };
  }
  metrics.primaryUp.set(state().primary.up ? 1 : 0);
}

/** Records the primary's flushed position at `at` (probes, and the lag sampler's own reads). */
export function recordFlush(at: number, lsn: bigint): void {
  const h = (state().flushHistory ??= []);
  if (h.length === 0 || lsn > h.at(-1)!.lsn) h.push({ at, lsn }); // only when it moved: the first time it reached lsn
  while (h.length > 1 && h[0]!.at < at - FLUSH_HISTORY_MS) h.shift();
}

/**
 * How long the replica at `replayLsn` has been behind, by the primary probes' record: the time
 * since the first probe that saw the primary flushed past it (a lower bound: it passed it at most
 * one probe interval earlier). undefined when the record doesn't reach back that far.
 */
export function secondsBehind(replayLsn: bigint, now = Date.now()): number | undefined {
  const h = state().flushHistory ?? [];
  if (h.length === 0 || h.at(-1)!.lsn <= replayLsn) return h.length ? 0 : undefined;
  if (h[0]!.lsn > replayLsn) return undefined; // behind everything remembered
  let i = h.length - 1;
  while (h[i - 1]!.lsn > replayLsn) i--; // h[i] is the first mark past replayLsn
  return Math.max(0, (now - h[i]!.at) / 1000);
}

async function probeReplica(region: string): Promise<void> {
  const url = replicaUrl(region);
  if (!url) return;
  const e = env();
  const before = replicaHealth(region).status;
  let next: ReplicaHealth;
  try {
    const r = await probePool(url).query<{ replay: string | null; ts_lag: number | null; recovery: boolean }>(
      `SELECT pg_last_wal_replay_lsn()::text AS replay,
              EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp()))::float8 AS ts_lag,
              pg_is_in_recovery() AS recovery`,
    );
    const row = r.rows[0]!;
    const replayLsn = row.replay ? parseLsn(row.replay) : undefined;
    const primaryLsn = state().primary.up ? state().primary.flushLsn : undefined;
    const behind = primaryLsn !== undefined && replayLsn !== undefined ? primaryLsn - replayLsn : 0n;
    const lagBytes = behind > 0n ? Number(behind) : 0;
    const lagSeconds =
      lagBytes > 0 && replayLsn !== undefined ? (secondsBehind(replayLsn) ?? Math.max(0, row.ts_lag ?? 0)) : 0;
    const lagging = !row.recovery
      ? false
      : lagBytes > e.REPLICA_MAX_LAG_BYTES || lagSeconds > e.REPLICA_MAX_LAG_SECONDS;
    next = { region, status: lagging ? 'lagging' : 'healthy', replayLsn, lagBytes, lagSeconds, checkedAt: Date.now() };
  } catch (err) {
    next = { region, status: 'down', checkedAt: Date.now(), error: (err as Error).message };
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
  state().flushHistory = undefined;
  state().replicas.clear();
  await Promise.all([...state().pools.values()].map((p) => p.end().catch(() => {})));
  state().pools.clear();
}

export interface HealthReportView {
  status: ReplicaStatus;
  serving_reads: boolean;
  lag_bytes: number | null;
  lag_seconds: number | null;
  checked_at: string | null;
  error: string | null;
}

/**
 * What GET /health/region answers for `gatewayRegion`. Raw database errors name hosts, ports and
 * roles: `withErrors` (operators) see them, everyone else only `unreachable`.
 */
export function healthReport(gatewayRegion: string, withErrors: boolean) {
  const error = (e: string | undefined) => (e ? (withErrors ? e : 'unreachable') : null);
  const view = (r: ReplicaHealth): HealthReportView => ({
    status: r.status,
    serving_reads: r.status === 'healthy',
    lag_bytes: r.lagBytes ?? null,
    lag_seconds: r.lagSeconds === undefined ? null : Math.round(r.lagSeconds * 1000) / 1000,
    checked_at: r.checkedAt ? new Date(r.checkedAt).toISOString() : null,
    error: error(r.error),
  });
  const replicas = Object.fromEntries(allReplicaHealth().map((r) => [r.region, view(r)]));
  const own = replicas[gatewayRegion] ?? null;
  const p = primaryHealth();
  return {
    region: gatewayRegion,
    status: p.up && (own === null || own.serving_reads) ? 'ok' : 'degraded',
    replica: own,
    primary: { reachable: p.up, error: error(p.error) },
    uptime_seconds: Math.round(uptimeSeconds()),
    replicas,
  };
}
