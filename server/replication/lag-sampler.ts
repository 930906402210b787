// The lag-history sampler: every ATLAS_SAMPLE_INTERVAL_MS (5 s) it records, per region, the
// replica's write/flush/replay lag as the primary sees it (pg_stat_replication), the replica's
// own replay position and time (pg_last_wal_replay_lsn(), pg_last_xact_replay_timestamp()),
// and this gateway's requests and latency for the region over the interval, into lag_samples.
// Exactly one process per deployment samples: the one holding a session advisory lock on the
// primary (pg_try_advisory_lock on its own connection; a dead holder's lock goes with its
// connection, and another process takes over on its next tick). Sample times are aligned to the
// interval and keyed, so even two samplers for a moment could not write one sample twice. A tick
// that cannot run (primary down, lock lost) writes nothing: the history shows a gap.
//
// Alerts (./alerts.ts) are opened and closed in the same tick, from the samples just stored.
//
// Retention, once a minute in the same tick: raw samples older than 1 hour are folded into one
// row per region and minute (resolution 60: lag = the minute's maximum, counts summed,
// percentiles = the minute's worst sample) and deleted; complete 5- and 30-minute buckets of
// minute rows are folded the same way into rollups (300, 1800; the minute rows stay), which the
// long history windows read; minute rows and rollups older than 7 days are deleted.
import pg from 'pg';
import { env } from '../env';
import { probePool, recordFlush, secondsBehind } from '../db/health';
import { primaryUrl, replicaRegions, replicaUrl } from '../db/topology';
import { formatLsn, parseLsn } from '../db/lsn';
import { logger } from '../telemetry/logger';
import { processSingleton } from '../process-singletons';
import { regionTraffic } from '../telemetry/region-traffic';
import { loadedRegionRegistry } from '../region/registry';
import { reconcileAlerts } from './alerts';

/** pg_try_advisory_lock key: "MLAG" (any constant the app uses nowhere else). */
export const SAMPLER_LOCK_KEY = 0x4d4c4147;
export const RAW_RESOLUTION = 5;
export const RAW_RETENTION_MS = 60 * 60_000;
export const MINUTE_RETENTION_MS = 7 * 24 * 60 * 60_000;
/** Rollups of the minute rows (5 and 30 minutes), read by the 24 h and 7 d charts. */
export const ROLLUP_RESOLUTIONS = [300, 1800] as const;

interface State {
  client?: pg.Client;
  connecting?: Promise<pg.Client | undefined>;
  timer?: NodeJS.Timeout;
  ticking?: Promise<void>;
  lastCompaction?: number;
  warnedStats?: boolean;
}

const state = () => processSingleton<State>('lag-sampler', () => ({}));

/** The lock-holding connection, or undefined when another process holds the lock. */
async function lockHolder(): Promise<pg.Client | undefined> {
  const s = state();
  if (s.client) return s.client;
  return (s.connecting ??= (async () => {
    const c = new pg.Client({
      connectionString: primaryUrl(),
      connectionTimeoutMillis: 2_000,
      statement_timeout: 3_000,
      query_timeout: 4_000,
      application_name: 'meridian-lag-sampler',
    });
    c.on('error', () => {
      if (state().client === c) state().client = undefined; // the lock went with the connection
    });
    try {
      await c.connect();
      const r = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [SAMPLER_LOCK_KEY]);
      if (!r.rows[0]?.ok) {
        await c.end().catch(() => {});
        return undefined;
      }
      logger.info('lag sampler: this process samples (advisory lock held)');
      s.client = c;
      return c;
    } catch {
      await c.end().catch(() => {});
      return undefined;
    } finally {
      s.connecting = undefined;
    }
  })());
}

interface SenderRow {
  application_name: string;
  state: string | null;
  write_lag: number | null;
  flush_lag: number | null;
  replay_lag: number | null;
  replay_lsn: string | null;
  sender_lag_bytes: string | null;
}

interface ReplicaRow {
  replay: string | null;
  replay_at: Date | null;
  ts_lag: number | null;
}

export interface SampleRow {
  sampledAt: Date;
  region: string;
  replicaUp: boolean | null;
  senderState: string | null;
  writeLagSeconds: number | null;
  flushLagSeconds: number | null;
  replayLagSeconds: number | null;
  senderLagBytes: bigint | null;
  replayLsn: string | null;
  replayAt: Date | null;
  lagBytes: bigint | null;
  lagSeconds: number | null;
  reads: number;
  writes: number;
  errors: number;
  readP50Ms: number | null;
  readP95Ms: number | null;
  readP99Ms: number | null;
  writeP50Ms: number | null;
  writeP95Ms: number | null;
  writeP99Ms: number | null;
}

function sampleRegions(): string[] {
  const codes = new Set(replicaRegions());
  for (const r of loadedRegionRegistry()?.all() ?? []) codes.add(r.code);
  return [...codes].sort();
}

/** One sample of every region, measured now (exported for tests; the loop calls it). */
export async function measure(client: pg.Client, now = Date.now()): Promise<SampleRow[]> {
  const interval = env().ATLAS_SAMPLE_INTERVAL_MS;
  const sampledAt = new Date(Math.floor(now / interval) * interval);
  const primaryLsn = parseLsn(
    // Flushed, as the health monitor counts it: unflushed WAL has reached no replica yet.
    (await client.query<{ lsn: string }>('SELECT pg_current_wal_flush_lsn()::text AS lsn')).rows[0]!.lsn,
  )!;
  recordFlush(Date.now(), primaryLsn);
  const senders = await client.query<SenderRow>(
    `SELECT application_name, state,
            EXTRACT(EPOCH FROM write_lag)::float8 AS write_lag,
            EXTRACT(EPOCH FROM flush_lag)::float8 AS flush_lag,
            EXTRACT(EPOCH FROM replay_lag)::float8 AS replay_lag,
            replay_lsn::text AS replay_lsn,
            pg_wal_lsn_diff($1::pg_lsn, replay_lsn)::bigint::text AS sender_lag_bytes
       FROM meridian_replication_status()`,
    [formatLsn(primaryLsn)],
  );
  const byName = new Map(senders.rows.map((r) => [r.application_name, r]));
  if (senders.rows.length > 0 && senders.rows.every((r) => r.state === null) && !state().warnedStats) {
    state().warnedStats = true;
    logger.warn(
      'lag sampler: pg_stat_replication shows no details; grant pg_read_all_stats to the role that owns meridian_replication_status()',
    );
  }
  const seconds = interval / 1000;
  return Promise.all(
    sampleRegions().map(async (region): Promise<SampleRow> => {
      const s = byName.get(region);
      const senderLagBytes = s?.sender_lag_bytes ? BigInt(s.sender_lag_bytes) : null;
      // pg_stat_replication clears its lag times shortly after a standby caught up on an idle
      // primary: nothing outstanding is a lag of 0, not unknown.
      const idle = (v: number | null) => (v === null && senderLagBytes === 0n && s?.state === 'streaming' ? 0 : v);
      let replica: ReplicaRow | undefined;
      const url = replicaUrl(region);
      if (url) {
        try {
          replica = (
            await probePool(url).query<ReplicaRow>(
              `SELECT pg_last_wal_replay_lsn()::text AS replay, pg_last_xact_replay_timestamp() AS replay_at,
                      EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp()))::float8 AS ts_lag`,
            )
          ).rows[0];
        } catch {
          replica = undefined;
        }
      }
      const replayLsn = replica?.replay ? parseLsn(replica.replay) : undefined;
      const behind = replayLsn !== undefined ? primaryLsn - replayLsn : undefined;
      const lagBytes = behind === undefined ? null : behind > 0n ? behind : 0n;
      // Seconds as the health monitor counts them (since the primary flushed past the replica).
      const lagSeconds =
        lagBytes === null
          ? null
          : lagBytes > 0n
            ? (secondsBehind(replayLsn!, now) ?? Math.max(0, replica?.ts_lag ?? 0))
            : 0;
      const reads = regionTraffic(region, 'read', seconds, now);
      const writes = regionTraffic(region, 'write', seconds, now);
      return {
        sampledAt,
        region,
        replicaUp: url ? replica !== undefined : null,
        senderState: s?.state ?? null,
        writeLagSeconds: s ? idle(s.write_lag) : null,
        flushLagSeconds: s ? idle(s.flush_lag) : null,
        replayLagSeconds: s ? idle(s.replay_lag) : null,
        senderLagBytes,
        replayLsn: replica?.replay ?? null,
        replayAt: replica?.replay_at ?? null,
        lagBytes,
        lagSeconds,
        reads: reads.requests,
        writes: writes.requests,
        errors: reads.errors + writes.errors,
        readP50Ms: reads.p50_ms,
        readP95Ms: reads.p95_ms,
        readP99Ms: reads.p99_ms,
        writeP50Ms: writes.p50_ms,
        writeP95Ms: writes.p95_ms,
        writeP99Ms: writes.p99_ms,
      };
    }),
  );
}

const COLUMNS = [
  'sampled_at',
  'region',
  'resolution_seconds',
  'replica_up',
  'sender_state',
  'write_lag_seconds',
  'flush_lag_seconds',
  'replay_lag_seconds',
  'sender_lag_bytes',
  'replay_lsn',
  'replay_at',
  'lag_bytes',
  'lag_seconds',
  'reads',
  'writes',
  'errors',
  'read_p50_ms',
  'read_p95_ms',
  'read_p99_ms',
  'write_p50_ms',
  'write_p95_ms',
  'write_p99_ms',
] as const;

async function store(client: pg.Client, rows: SampleRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values: unknown[] = [];
  const tuples = rows.map((r) => {
    const v = [
      r.sampledAt,
      r.region,
      RAW_RESOLUTION,
      r.replicaUp,
      r.senderState,
      r.writeLagSeconds,
      r.flushLagSeconds,
      r.replayLagSeconds,
      r.senderLagBytes?.toString() ?? null,
      r.replayLsn,
      r.replayAt,
      r.lagBytes?.toString() ?? null,
      r.lagSeconds,
      r.reads,
      r.writes,
      r.errors,
      r.readP50Ms,
      r.readP95Ms,
      r.readP99Ms,
      r.writeP50Ms,
      r.writeP95Ms,
      r.writeP99Ms,
    ];
    const start = values.length;
    values.push(...v);
    return `(${v.map((_, i) => `$${start + i + 1}`).join(', ')})`;
  });
  await client.query(
    `INSERT INTO lag_samples (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}
     ON CONFLICT (region, resolution_seconds, sampled_at) DO NOTHING`,
    values,
  );
}

/** Folds raw samples older than an hour into minute rows and drops what is past retention. */
export async function compact(client: pg.Client, now = Date.now()): Promise<void> {
  const cutoff = new Date(Math.floor((now - RAW_RETENTION_MS) / 60_000) * 60_000); // whole minutes only
  await client.query('BEGIN');
  try {
    await client.query(
      `INSERT INTO lag_samples (sampled_at, region, resolution_seconds, replica_up, sender_state,
              write_lag_seconds, flush_lag_seconds, replay_lag_seconds, sender_lag_bytes, replay_lsn, replay_at,
              lag_bytes, lag_seconds, reads, writes, errors, read_p50_ms, read_p95_ms, read_p99_ms,
              write_p50_ms, write_p95_ms, write_p99_ms)
       SELECT date_trunc('minute', sampled_at), region, 60, bool_or(replica_up), max(sender_state),
              max(write_lag_seconds), max(flush_lag_seconds), max(replay_lag_seconds), max(sender_lag_bytes),
              max(replay_lsn), max(replay_at), max(lag_bytes), max(lag_seconds),
              sum(reads), sum(writes), sum(errors), max(read_p50_ms), max(read_p95_ms), max(read_p99_ms),
              max(write_p50_ms), max(write_p95_ms), max(write_p99_ms)
         FROM lag_samples
        WHERE resolution_seconds = $1 AND sampled_at < $2
        GROUP BY 1, 2
       ON CONFLICT (region, resolution_seconds, sampled_at) DO NOTHING`,
      [RAW_RESOLUTION, cutoff],
    );
    await client.query('DELETE FROM lag_samples WHERE resolution_seconds = $1 AND sampled_at < $2', [
      RAW_RESOLUTION,
      cutoff,
    ]);
    // Rollups of the minute rows, for complete buckets only (every minute of a bucket that ends
    // by the cutoff is folded above), from the last bucket rolled on: a bucket is written once.
    for (const size of ROLLUP_RESOLUTIONS) {
      await client.query(
        `WITH done AS (SELECT max(sampled_at) + make_interval(secs => $1::int) AS after
                         FROM lag_samples WHERE resolution_seconds = $1::int)
         INSERT INTO lag_samples (sampled_at, region, resolution_seconds, covered_seconds, replica_up, sender_state,
                write_lag_seconds, flush_lag_seconds, replay_lag_seconds, sender_lag_bytes, replay_lsn, replay_at,
                lag_bytes, lag_seconds, reads, writes, errors, read_p50_ms, read_p95_ms, read_p99_ms,
                write_p50_ms, write_p95_ms, write_p99_ms)
         SELECT date_bin(make_interval(secs => $1::int), sampled_at, TIMESTAMPTZ '2000-01-01') AS bucket, region, $1::int,
                sum(COALESCE(covered_seconds, resolution_seconds)), bool_or(replica_up), max(sender_state),
                max(write_lag_seconds), max(flush_lag_seconds), max(replay_lag_seconds), max(sender_lag_bytes),
                max(replay_lsn), max(replay_at), max(lag_bytes), max(lag_seconds),
                sum(reads), sum(writes), sum(errors), max(read_p50_ms), max(read_p95_ms), max(read_p99_ms),
                max(write_p50_ms), max(write_p95_ms), max(write_p99_ms)
           FROM lag_samples, done
          WHERE resolution_seconds = 60 AND sampled_at >= COALESCE(done.after, '-infinity')
            AND sampled_at < date_bin(make_interval(secs => $1::int), $2::timestamptz, TIMESTAMPTZ '2000-01-01')
          GROUP BY 1, 2
         ON CONFLICT (region, resolution_seconds, sampled_at) DO NOTHING`,
        [size, cutoff],
      );
    }
    await client.query('DELETE FROM lag_samples WHERE resolution_seconds = ANY($1) AND sampled_at < $2', [
      [60, ...ROLLUP_RESOLUTIONS],
      new Date(now - MINUTE_RETENTION_MS),
    ]);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  }
}

/**
 * One tick: take (or keep) the lock, sample, store, and compact once a minute. Resolves to whether
 * this process sampled. Exported so tests drive it without timers.
 */
export function sampleTick(now = Date.now()): Promise<boolean> {
  const s = state();
  let sampled = false;
  const run = (s.ticking ??= (async () => {
    try {
      const client = await lockHolder();
      if (!client) return;
      const rows = await measure(client, now);
      await store(client, rows);
      sampled = true;
      if (rows[0]) {
        for (const c of await reconcileAlerts(client, rows[0].sampledAt)) {
          logger.warn(c, `alert ${c.kind} ${c.change} in ${c.region}`);
        }
      }
      if (!s.lastCompaction || now - s.lastCompaction >= 60_000) {
        s.lastCompaction = now;
        await compact(client, now);
      }
    } catch (e) {
      logger.warn({ err: (e as Error).message }, 'lag sampler: tick failed (a gap in the history)');
      const c = s.client;
      s.client = undefined;
      await c?.end().catch(() => {});
    } finally {
      s.ticking = undefined;
    }
  })());
  return run.then(() => sampled);
}

/** Starts sampling in this process (idempotent); ticks aligned to the interval. */
export function startLagSampler(): void {
  const s = state();
  if (s.timer || env().ATLAS_SAMPLER === 'off') return;
  const interval = env().ATLAS_SAMPLE_INTERVAL_MS;
  const schedule = () => {
    const wait = interval - (Date.now() % interval) + 50; // just after the boundary
    s.timer = setTimeout(() => {
      void sampleTick().finally(() => {
        if (state().timer) schedule();
      });
    }, wait);
    s.timer.unref();
  };
  schedule();
}

/** Stops sampling and releases the lock (its connection closes). */
export async function stopLagSampler(): Promise<void> {
  const s = state();
  if (s.timer) clearTimeout(s.timer);
  s.timer = undefined;
  await s.ticking?.catch(() => {});
  const c = s.client;
  s.client = undefined;
  s.lastCompaction = undefined;
  await c?.end().catch(() => {});
}
