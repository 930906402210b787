// The lag, traffic and link history Atlas charts: lag_samples over a window, binned to a fixed step;
// a bin without a measurement is null, a gap (docs/atlas.md#lag-history).
import { z } from 'zod';
import { read } from '../db/access';
import type { Db } from '../db/client';
import type { DataRequest } from '../db/request-state';
import { sharedRead } from '../db/shared-reads';
import { run } from '../db/sql';
import { env } from '../env';
import { historyFromRollups, historyFromSamples, type HistoryRow } from './lag-history.sql';
import { ROLLUP_RESOLUTIONS } from './lag.sql';

export const WINDOWS = { '15m': 15 * 60, '1h': 60 * 60, '24h': 24 * 3600, '7d': 7 * 24 * 3600 } as const;
export type HistoryWindow = keyof typeof WINDOWS;
/** Seconds per bin: every raw sample at 15 min; about 250–350 points otherwise. */
const STEP: Record<HistoryWindow, number> = { '15m': 5, '1h': 15, '24h': 300, '7d': 1800 };
/** Windows with steps this wide (24 h, 7 d) are shared reads (db/shared-reads.ts). */
const SHARED_STEP_S = 300;

const n = z.number().nullable();
const historyPoint = z.object({
  t: z.string(),
  replica_up: z.boolean().nullable(),
  lag_seconds: n,
  lag_bytes: n,
  write_lag_seconds: n,
  flush_lag_seconds: n,
  replay_lag_seconds: n,
  read_rate: n,
  write_rate: n,
  error_rate: n,
  read_p95_ms: n,
  write_p95_ms: n,
  primary_rtt_ms: n.describe("The region's round trip to the primary (ms; the bin's worst)"),
});
type HistoryPoint = z.infer<typeof historyPoint>;

export const lagHistoryView = z.object({
  window: z.enum(['15m', '1h', '24h', '7d']),
  step_seconds: z.number(),
  from: z.string(),
  to: z.string(),
  limits: z.object({ lag_seconds: z.number(), lag_bytes: z.number() }),
  regions: z.array(z.object({ region: z.string(), points: z.array(historyPoint) })),
});

export async function lagHistory(
  req: DataRequest,
  opts: { window: HistoryWindow; region?: string },
  now = Date.now(),
): Promise<z.infer<typeof lagHistoryView>> {
  const step = STEP[opts.window];
  const to = Math.floor(now / (step * 1000)) * step * 1000;
  const from = to - WINDOWS[opts.window] * 1000;
  // A step with rollups (24 h, 7 d) reads them; the shorter windows the raw and minute rows.
  const binned = (ROLLUP_RESOLUTIONS as readonly number[]).includes(step) ? historyFromRollups : historyFromSamples;
  const query = (db: Db) => run(db, binned, step, new Date(from), new Date(to + step * 1000), opts.region ?? null);
  // A day's or a week's bins are thousands of rows, the same for every operator: shared for a few
  // seconds (their newest bin is 5 or 30 minutes wide). The short windows are read afresh.
  const rows =
    step >= SHARED_STEP_S
      ? await sharedRead(req, `lag-history:${opts.window}:${opts.region ?? '*'}:${to}`, query)
      : await read(req, query);
  const byRegion = new Map<string, Map<number, HistoryRow>>();
  for (const r of rows) {
    let m = byRegion.get(r.region);
    if (!m) byRegion.set(r.region, (m = new Map()));
    m.set(r.bin.getTime(), r);
  }
  const regions = [...byRegion.keys()].sort().map((region) => {
    const m = byRegion.get(region)!;
    const points: HistoryPoint[] = [];
    for (let t = from + step * 1000; t <= to; t += step * 1000) {
      const r = m.get(t);
      // Rates over the time the samples covered (a bin with missed samples is not diluted).
      const covered = r?.covered ?? 0;
      const reads = r?.reads ?? null;
      const writes = r?.writes ?? null;
      const errors = r?.errors ?? null;
      points.push({
        t: new Date(t).toISOString(),
        replica_up: r?.replica_up ?? null,
        lag_seconds: r?.lag_seconds ?? null,
        lag_bytes: r?.lag_bytes ?? null,
        write_lag_seconds: r?.write_lag_seconds ?? null,
        flush_lag_seconds: r?.flush_lag_seconds ?? null,
        replay_lag_seconds: r?.replay_lag_seconds ?? null,
        read_rate: covered && reads !== null ? reads / covered : null,
        write_rate: covered && writes !== null ? writes / covered : null,
        error_rate:
          reads !== null && writes !== null && errors !== null && reads + writes > 0
            ? errors / (reads + writes)
            : covered
              ? 0
              : null,
        read_p95_ms: r?.read_p95_ms ?? null,
        write_p95_ms: r?.write_p95_ms ?? null,
        primary_rtt_ms: r?.primary_rtt_ms ?? null,
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
