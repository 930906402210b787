// Atlas under its own weight: the dashboard's and the banner's polls, the lag sampler's tick, and
// the history query with 1 hour and 7 days of synthetic samples (docs/performance.md).
import { encode } from 'next-auth/jwt';
import pg from 'pg';
import { resetEnvCache } from '../server/env';
import { compact } from '../server/replication/lag-retention';
import { sampleTick, stopLagSampler } from '../server/replication/lag-sampler';
import { summarize, type Benchmark, type BenchResult } from './lib';
import { load, startBenchServer } from './server';

const REQUESTS = Number(process.env.BENCH_ATLAS_REQUESTS ?? 300);
const CONCURRENCY = 4;
const TICKS = Number(process.env.BENCH_ATLAS_TICKS ?? 200);
const REGIONS = ['ams1', 'lax1', 'sfo1'];
const WINDOWS = ['15m', '1h', '24h', '7d'] as const;

/**
 * Replaces lag_samples with `hours` of synthetic history ending now: raw 5 s rows for the last
 * hour, minute rows before it, and their 5- and 30-minute rollups (what retention keeps). A
 * sawtooth of lag, some traffic.
 */
async function fillSamples(c: pg.Client, ownerUrl: string, hours: number): Promise<{ rows: number; rollupMs: number }> {
  await c.query('DELETE FROM lag_samples');
  const cols = `sampled_at, region, resolution_seconds, replica_up, sender_state, write_lag_seconds, flush_lag_seconds,
                replay_lag_seconds, sender_lag_bytes, replay_lsn, replay_at, lag_bytes, lag_seconds, reads, writes,
                errors, read_p50_ms, read_p95_ms, read_p99_ms, write_p50_ms, write_p95_ms, write_p99_ms`;
  const select = (step: number, res: number) => `
    SELECT t, r, ${res}, true, 'streaming', 0.001, 0.002, 0.003 + (extract(epoch FROM t)::bigint % 97) / 100.0,
           (extract(epoch FROM t)::bigint % 89) * 1024, '0/3000000', t, (extract(epoch FROM t)::bigint % 89) * 1024,
           (extract(epoch FROM t)::bigint % 97) / 100.0, 5 * ${res}, ${res}, 0, 2.1, 6.3, 9.9, 8.2, 15.1, 22.4
      FROM unnest($1::text[]) r,
           generate_series($2::timestamptz, $3::timestamptz, make_interval(secs => ${step})) t`;
  const now = Math.floor(Date.now() / 5000) * 5000;
  const hourAgo = now - 3600_000;
  await c.query(`INSERT INTO lag_samples (${cols}) ${select(5, 5)}`, [
    REGIONS,
    new Date(Math.max(hourAgo, now - hours * 3600_000) + 5000),
    new Date(now),
  ]);
  if (hours > 1) {
    await c.query(`INSERT INTO lag_samples (${cols}) ${select(60, 60)}`, [
      REGIONS,
      new Date(Math.floor((now - hours * 3600_000) / 60_000) * 60_000),
      new Date(Math.floor(hourAgo / 60_000) * 60_000 - 60_000),
    ]);
  }
  // The rollups the sampler's retention would have written meanwhile (timed: the first fold of a
  // history that has none, e.g. right after upgrading).
  const t = performance.now();
  await compact(c, now);
  const rollupMs = performance.now() - t;
  const owner = new pg.Client({ connectionString: ownerUrl }); // ANALYZE needs the table's owner
  await owner.connect();
  await owner.query('ANALYZE lag_samples');
  await owner.end();
  const count = await c.query<{ n: string }>('SELECT count(*) AS n FROM lag_samples');
  return { rows: Number(count.rows[0]!.n), rollupMs };
}

const bench: Benchmark = {
  name: 'atlas',
  async run() {
    // The app server never samples: this process does, so its ticks can be timed.
    const srv = await startBenchServer({ ATLAS_SAMPLER: 'off' });
    const results: BenchResult[] = [];
    const db = new pg.Client({ connectionString: srv.stack.appEnv.DATABASE_URL });
    await db.connect();
    try {
      resetEnvCache(); // prepareLocal pointed this process at the bench's databases
      const ops = (await db.query<{ id: string }>(`SELECT id FROM users WHERE email = 'ops@meridian.test'`)).rows[0]!;
      const salt = 'authjs.session-token';
      const jwt = await encode({
        token: { uid: ops.id, org: null, sub: ops.id, sv: 0 },
        secret: srv.stack.appEnv.AUTH_SECRET!,
        salt,
      });
      const headers = { cookie: `${salt}=${jwt}` };
      const get = async (path: string) => {
        const res = await fetch(`${srv.baseUrl}${path}`, { headers });
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return res.json() as Promise<Record<string, unknown>>;
      };

      // The sampler: TICKS ticks (3 regions: pg_stat_replication, each replica, insert, alerts).
      const tickMs: number[] = [];
      for (let i = 0; i < TICKS; i++) {
        const t = performance.now();
        if (!(await sampleTick())) throw new Error('the bench process did not get the sampler lock');
        tickMs.push(performance.now() - t);
      }
      results.push({
        name: `lag sampler: one tick, 3 regions (measure + store + alerts; compaction once a minute), ${TICKS} ticks`,
        figures: summarize(tickMs, 'ms'),
      });

      for (const hours of [1, 7 * 24]) {
        const { rows, rollupMs } = await fillSamples(db, srv.stack.topology!.urls().ownerPrimary, hours);
        results.push({
          name: `retention: first fold of ${hours === 1 ? '1 hour' : '7 days'} of samples into rollups`,
          figures: { ms: Math.round(rollupMs * 10) / 10, rows },
        });
        const regions = (await get('/v1/atlas/regions')) as { data: unknown[] };
        if (regions.data.length !== 3) throw new Error(`expected 3 regions, got ${regions.data.length}`);
        for (const p of ['/v1/atlas/regions', '/v1/atlas/alerts']) {
          await load(`${srv.baseUrl}${p}`, 30, CONCURRENCY, headers); // warm-up
          const r = await load(`${srv.baseUrl}${p}`, REQUESTS, CONCURRENCY, headers);
          results.push({
            name: `GET ${p} (${hours === 1 ? '1 hour' : '7 days'} of samples, ${rows} rows; concurrency ${CONCURRENCY})`,
            figures: { ...summarize(r.latencies, 'ms'), req_per_s: Math.round(r.latencies.length / r.seconds) },
          });
        }
        for (const w of WINDOWS) {
          const path = `/v1/atlas/lag-history?window=${w}`;
          const body = (await get(path)) as { regions: { points: unknown[] }[] };
          const points = body.regions.reduce((n, r) => n + r.points.length, 0);
          await load(`${srv.baseUrl}${path}`, 10, CONCURRENCY, headers);
          const r = await load(`${srv.baseUrl}${path}`, Math.round(REQUESTS / 3), CONCURRENCY, headers);
          results.push({
            name: `GET ${path} with ${hours === 1 ? '1 hour' : '7 days'} of samples (${rows} rows), ${points} points`,
            figures: summarize(r.latencies, 'ms'),
          });
        }
      }

      // Retention's once-a-minute fold at 7 days of history (raw rows older than an hour: none
      // here, so this is the steady-state cost: find nothing to fold, drop the oldest minute).
      const compactMs: number[] = [];
      const c = new pg.Client({ connectionString: srv.stack.appEnv.DATABASE_URL });
      await c.connect();
      try {
        for (let i = 0; i < 20; i++) {
          const t = performance.now();
          await compact(c);
          compactMs.push(performance.now() - t);
        }
      } finally {
        await c.end();
      }
      results.push({ name: 'retention: compact() at 7 days of samples, 20 runs', figures: summarize(compactMs, 'ms') });
    } finally {
      await stopLagSampler();
      await db.end();
      await srv.stop();
    }
    return results;
  },
};

export default bench;
