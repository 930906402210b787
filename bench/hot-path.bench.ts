// The hot path, measured as issue 13 asks: "list 50 clusters" through Meridian's full chain (REST
// with an API key, tRPC with a browser session) against a plain Next + Prisma handler in the
// same app doing the obvious thing (app/bench-baseline: one key lookup, one list query, JSON out),
// and an empty route handler (the framework's floor). autocannon, 50 connections, interleaved
// rounds on one server (2 cores shared with the load generator), medians of the rounds.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { encode } from 'next-auth/jwt';
import pg from 'pg';
import { newId } from '../server/ids';
import { type Benchmark, type BenchResult } from './lib';
import { startBenchServer } from './server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
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

async function fire(base: string, t: Target, seconds: number): Promise<Round> {
  const r = await autocannon({
    url: `${base}${t.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: t.headers,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
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
    const srv = await startBenchServer({ MERIDIAN_BENCH_TOKEN: token });
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
    } finally {
      await srv.stop();
    }
    return results;
  },
};

export default bench;
