// The hot path: "list 50 clusters" through Meridian's full chain (REST, tRPC) against a plain
// Next + Prisma handler and an empty route handler (docs/performance.md#the-hot-path).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import autocannon from 'autocannon';
import { encode } from 'next-auth/jwt';
import pg from 'pg';
import { newId } from '../server/ids';
import { type Benchmark, type BenchResult } from './lib';
import { startBenchServer } from './server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Memory soak at full load (5 minutes); BENCH_SOAK_SECONDS=0 skips it. */
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

interface Target {
  name: string;
  path: string;
  headers: Record<string, string>;
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function fire(
  base: string,
  t: Target,
  seconds: number,
  connections = CONNECTIONS,
): Promise<Round & { p95: number }> {
  const r = await autocannon({
    url: `${base}${t.path}`,
    connections,
    duration: seconds,
    headers: t.headers,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p95: (r.latency as unknown as Record<string, number>).p97_5 ?? r.latency.p99,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

/** Resident memory of a process, in MB. */
function rssMb(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Enough ready clusters in acme's sfo1 for a page of 50. */
async function seedClusters(databaseUrl: string, orgSlug: string, region: string, want: number): Promise<void> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const org = (await c.query<{ id: string }>('SELECT id FROM organizations WHERE slug = $1', [orgSlug])).rows[0]!;
    const project = (await c.query<{ id: string }>('SELECT id FROM projects WHERE org_id = $1 LIMIT 1', [org.id]))
      .rows[0]!;
    const have = Number(
      (
        await c.query<{ n: string }>(
          `SELECT count(*) AS n FROM clusters WHERE org_id = $1 AND region = $2 AND status <> 'deleted'`,
          [org.id, region],
        )
      ).rows[0]!.n,
    );
    for (let i = have; i < want; i++) {
      await c.query(
        `INSERT INTO clusters (id, org_id, project_id, region, name, template, node_count, version, status, ready_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'k8s-small', 1, '1.34.1', 'ready', now(), now())`,
        [newId('cls'), org.id, project.id, region, `bench-${i}`],
      );
    }
  } finally {
    await c.end();
  }
}

const bench: Benchmark = {
  name: 'hot-path',
  async run() {
    const token = randomBytes(24).toString('hex');
    const srv = await startBenchServer({ MERIDIAN_BENCH_TOKEN: token }, { baseline: true });
    const results: BenchResult[] = [];
    try {
      const { stack } = srv;
      await seedClusters(stack.appEnv.DATABASE_URL!, 'acme', 'sfo1', 60);
      await new Promise((r) => setTimeout(r, 1500)); // replicas replay the seed
      const key = stack.credentials.api_keys.find((k) => k.org === 'acme' && k.region === 'sfo1')!.key;
      const c = new pg.Client({ connectionString: stack.appEnv.DATABASE_URL });
      await c.connect();
      const alice = (
        await c.query<{ id: string; org_id: string }>(
          `SELECT u.id, m.org_id FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.email = 'alice@acme.test'`,
        )
      ).rows[0]!;
      await c.end();
      const salt = 'authjs.session-token';
      const jwt = await encode({
        token: { uid: alice.id, org: alice.org_id, sub: alice.id, sv: 0 },
        secret: stack.appEnv.AUTH_SECRET!,
        salt,
      });
      const host = `sfo1.localhost:${new URL(srv.baseUrl).port}`;
      const targets: Target[] = [
        {
          name: 'baseline: plain handler, key lookup + list (Prisma)',
          path: '/bench-baseline?limit=50',
          headers: { host, authorization: `Bearer ${key}`, 'x-bench-token': token },
        },
        {
          name: 'Meridian REST: GET /v1/compute/clusters?limit=50, API key',
          path: '/v1/compute/clusters?limit=50',
          headers: { host, authorization: `Bearer ${key}` },
        },
        {
          name: 'Meridian tRPC: compute.clusters.list, browser session',
          path: `/api/trpc/compute.clusters.list?input=${encodeURIComponent(JSON.stringify({ json: { limit: 50 } }))}`,
          headers: { host, cookie: `${salt}=${jwt}` },
        },
        { name: 'floor: empty route handler', path: '/api/livez', headers: { host } },
      ];
      // Sanity: every target answers 200 with the same 50 clusters where it lists.
      for (const t of targets) {
        const res = await fetch(`${srv.baseUrl}${t.path}`, { headers: t.headers });
        if (res.status !== 200) throw new Error(`${t.name}: ${res.status} ${await res.text()}`);
      }
      for (const t of targets) await fire(srv.baseUrl, t, 2); // warm-up
      const rounds = new Map<string, Round[]>(targets.map((t) => [t.name, []]));
      for (let i = 0; i < ROUNDS; i++) {
        for (const t of targets) rounds.get(t.name)!.push(await fire(srv.baseUrl, t, SECONDS));
      }
      const figures = new Map<string, { rps: number; p50: number; p99: number }>();
      for (const t of targets) {
        const rs = rounds.get(t.name)!;
        const f = {
          rps: median(rs.map((r) => r.rps)),
          p50: median(rs.map((r) => r.p50)),
          p99: median(rs.map((r) => r.p99)),
        };
        figures.set(t.name, f);
        results.push({
          name: `${t.name} (${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS} rounds, medians)`,
          figures: {
            req_per_s: Math.round(f.rps),
            p50_ms: f.p50,
            p99_ms: f.p99,
            errors: rs.reduce((a, r) => a + r.errors, 0),
          },
        });
      }
      const [baseline, restList, trpcList, floor] = targets.map((t) => figures.get(t.name)!);
      const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
      results.push({
        name: 'ratios (throughput, same run)',
        figures: {
          rest_over_baseline: ratio(restList!.rps, baseline!.rps),
          trpc_over_baseline: ratio(trpcList!.rps, baseline!.rps),
          rest_over_floor: ratio(restList!.rps, floor!.rps),
          baseline_over_floor: ratio(baseline!.rps, floor!.rps),
        },
        note: 'goal: REST and tRPC lists ≥ 1.1× the baseline',
      });

      // Fan-out: globex (three regions) lists every region at once vs one region, same session.
      const bobRow = await (async () => {
        const db = new pg.Client({ connectionString: stack.appEnv.DATABASE_URL });
        await db.connect();
        try {
          return (
            await db.query<{ id: string; org_id: string }>(
              `SELECT u.id, m.org_id FROM users u JOIN memberships m ON m.user_id = u.id
                JOIN organizations o ON o.id = m.org_id WHERE u.email = 'bob@globex.test' AND o.slug = 'globex'`,
            )
          ).rows[0]!;
        } finally {
          await db.end();
        }
      })();
      const bobJwt = await encode({
        token: { uid: bobRow.id, org: bobRow.org_id, sub: bobRow.id, sv: 0 },
        secret: stack.appEnv.AUTH_SECRET!,
        salt,
      });
      const bobCookie = `${salt}=${bobJwt}`;
      const global = `localhost:${new URL(srv.baseUrl).port}`;
      const fanOut: Target = {
        name: 'fan-out',
        path: '/v1/compute/clusters?limit=50',
        headers: { host: global, cookie: bobCookie },
      };
      const single: Target = {
        name: 'single region',
        path: '/v1/compute/clusters?limit=50',
        headers: { host: global, cookie: bobCookie, 'x-region': 'sfo1' },
      };
      await fire(srv.baseUrl, fanOut, 2, 8);
      const fo = await fire(srv.baseUrl, fanOut, SECONDS, 8);
      const sr = await fire(srv.baseUrl, single, SECONDS, 8);
      results.push({
        name: 'fan-out over 3 regions vs one region (8 connections, session)',
        figures: {
          fan_out_p50_ms: fo.p50,
          fan_out_p97_5_ms: fo.p95,
          single_p50_ms: sr.p50,
          single_p97_5_ms: sr.p95,
          p97_5_ratio: ratio(fo.p95, sr.p95),
        },
        note: 'goal: fan-out p95 ≤ 1.5× single-region (autocannon reports p97.5, used here)',
      });
      const hundred = await fire(srv.baseUrl, fanOut, SECONDS, 100);
      results.push({
        name: '100 fan-out lists in flight at once',
        figures: {
          req_per_s: Math.round(hundred.rps),
          p50_ms: hundred.p50,
          p97_5_ms: hundred.p95,
          p99_ms: hundred.p99,
          errors: hundred.errors,
        },
      });

      if (SOAK_SECONDS > 0) {
        const before = rssMb(srv.pid);
        const soak = await fire(srv.baseUrl, targets[1]!, SOAK_SECONDS);
        const after = rssMb(srv.pid);
        results.push({
          name: `soak: REST list at ${CONNECTIONS} connections for ${SOAK_SECONDS} s`,
          figures: {
            rss_start_mb: before,
            rss_end_mb: after,
            req_per_s: Math.round(soak.rps),
            p99_ms: soak.p99,
            errors: soak.errors,
          },
        });
      }
    } finally {
      await srv.stop();
    }
    return results;
  },
};

export default bench;
