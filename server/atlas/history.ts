// The lag and traffic history Atlas charts: lag_samples over a window (15 min, 1 h, 24 h, 7 d),
// binned to a fixed step so a chart has a few hundred points whatever the window. Every bin of
// the window is present; a bin without a measurement (a missed sample, a replica down) holds
// null, so the chart draws a gap, never a zero. Lag is the bin's maximum (spikes survive),
// request counts are summed into rates, latency percentiles are the bin's worst sample. The 24 h
// and 7 d windows read the sampler's 5- and 30-minute rollups (one row per bin and region).
import { Prisma } from '../db/generated/client';
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { env } from '../env';
import { ROLLUP_RESOLUTIONS } from './lag-sampler';

export const WINDOWS = { '15m': 15 * 60, '1h': 60 * 60, '24h': 24 * 3600, '7d': 7 * 24 * 3600 } as const;
export type HistoryWindow = keyof typeof WINDOWS;
/** Seconds per bin: every raw sample at 15 min; about 250–350 points otherwise. */
const STEP: Record<HistoryWindow, number> = { '15m': 5, '1h': 15, '24h': 300, '7d': 1800 };

export interface HistoryPoint {
  t: string;
  replica_up: boolean | null;
  lag_seconds: number | null;
  lag_bytes: number | null;
  write_lag_seconds: number | null;
  flush_lag_seconds: number | null;
  replay_lag_seconds: number | null;
  read_rate: number | null;
  write_rate: number | null;
  error_rate: number | null;
  read_p95_ms: number | null;
  write_p95_ms: number | null;
}

export interface RegionHistory {
  region: string;
  points: HistoryPoint[];
}

interface Row {
  bin: Date;
  region: string;
  replica_up: boolean | null;
  lag_seconds: number | null;
  lag_bytes: bigint | null;
  write_lag_seconds: number | null;
  flush_lag_seconds: number | null;
  replay_lag_seconds: number | null;
  reads: bigint | null;
  writes: bigint | null;
  errors: bigint | null;
  covered: number;
  read_p95_ms: number | null;
  write_p95_ms: number | null;
}

/**
 * Which rows a window reads: raw and minute rows, or, for a step that has rollups (24 h, 7 d),
 * the rollups up to the last one written and the finer rows after it (a bin is never counted
 * twice: the finer rows after the last rollup belong to buckets not rolled yet).
 */
function rows_(step: number): Prisma.Sql {
  if (!(ROLLUP_RESOLUTIONS as readonly number[]).includes(step)) return Prisma.sql`resolution_seconds IN (5, 60)`;
  const rolledUntil = Prisma.sql`COALESCE((SELECT max(sampled_at) + make_interval(secs => ${step}::int)
                                             FROM lag_samples WHERE resolution_seconds = ${step}::int), '-infinity')`;
  return Prisma.sql`((resolution_seconds = ${step}::int AND sampled_at < ${rolledUntil})
                     OR (resolution_seconds IN (5, 60) AND sampled_at >= ${rolledUntil}))`;
}

export async function lagHistory(
  req: DataRequest,
  opts: { window: HistoryWindow; region?: string },
  now = Date.now(),
): Promise<{
  window: HistoryWindow;
  step_seconds: number;
  from: string;
  to: string;
  limits: { lag_seconds: number; lag_bytes: number };
  regions: RegionHistory[];
}> {
  const step = STEP[opts.window];
  const to = Math.floor(now / (step * 1000)) * step * 1000;
  const from = to - WINDOWS[opts.window] * 1000;
  const rows = await read(
    req,
    (db) => db.$queryRaw<Row[]>`
      SELECT date_bin(make_interval(secs => ${step}), sampled_at, TIMESTAMPTZ '2000-01-01') AS bin, region,
             bool_or(replica_up) AS replica_up,
             max(lag_seconds) AS lag_seconds, max(lag_bytes) AS lag_bytes,
             max(write_lag_seconds) AS write_lag_seconds, max(flush_lag_seconds) AS flush_lag_seconds,
             max(replay_lag_seconds) AS replay_lag_seconds,
             sum(reads)::bigint AS reads, sum(writes)::bigint AS writes, sum(errors)::bigint AS errors,
             sum(COALESCE(covered_seconds, resolution_seconds))::int AS covered,
             max(read_p95_ms) AS read_p95_ms, max(write_p95_ms) AS write_p95_ms
        FROM lag_samples
       WHERE sampled_at >= ${new Date(from)} AND sampled_at < ${new Date(to + step * 1000)}
             ${opts.region ? Prisma.sql`AND region = ${opts.region}` : Prisma.empty}
             AND ${rows_(step)}
       GROUP BY 1, 2`,
  );
  const byRegion = new Map<string, Map<number, Row>>();
  for (const r of rows) {
    let m = byRegion.get(r.region);
    if (!m) byRegion.set(r.region, (m = new Map()));
    m.set(r.bin.getTime(), r);
  }
  const num = (v: number | bigint | null) => (v === null ? null : Number(v));
  const regions = [...byRegion.keys()].sort().map((region) => {
    const m = byRegion.get(region)!;
    const points: HistoryPoint[] = [];
    for (let t = from + step * 1000; t <= to; t += step * 1000) {
      const r = m.get(t);
      // Rates over the time the samples covered (a bin with missed samples is not diluted).
      const covered = r?.covered ?? 0;
      const reads = num(r?.reads ?? null);
      const writes = num(r?.writes ?? null);
      const errors = num(r?.errors ?? null);
      points.push({
        t: new Date(t).toISOString(),
        replica_up: r?.replica_up ?? null,
        lag_seconds: num(r?.lag_seconds ?? null),
        lag_bytes: num(r?.lag_bytes ?? null),
        write_lag_seconds: num(r?.write_lag_seconds ?? null),
        flush_lag_seconds: num(r?.flush_lag_seconds ?? null),
        replay_lag_seconds: num(r?.replay_lag_seconds ?? null),
        read_rate: covered && reads !== null ? reads / covered : null,
        write_rate: covered && writes !== null ? writes / covered : null,
        error_rate:
          reads !== null && writes !== null && errors !== null && reads + writes > 0
            ? errors / (reads + writes)
            : covered
              ? 0
              : null,
        read_p95_ms: num(r?.read_p95_ms ?? null),
        write_p95_ms: num(r?.write_p95_ms ?? null),
      });
    }
    return { region, points };
  });
  const e = env();
  return {
    window: opts.window,
    step_seconds: step,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    limits: { lag_seconds: e.REPLICA_MAX_LAG_SECONDS, lag_bytes: e.REPLICA_MAX_LAG_BYTES },
    regions,
  };
}
