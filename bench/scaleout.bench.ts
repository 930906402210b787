// Scale-out: one region's reads with 1 vs 2 gateway processes, a non-writer's reads while another
// writes via the other gateway, and a read right after its own write there (docs/performance.md).
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { spawnGateway, type GatewaySpec } from '../dev/deployment-processes';
import { freePort, waitForHttp } from '../dev/ports';
import { newId } from '../server/ids';
import { summarize, type Benchmark, type BenchResult } from './lib';
import { startBenchServer } from './server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const CYCLES = Number(process.env.BENCH_CYCLES ?? 300);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function fire(urls: string[], headers: Record<string, string>, seconds: number) {
  const per = Math.floor(CONNECTIONS / urls.length);
  const rs = await Promise.all(
    urls.map((url) =>
      autocannon({ url: `${url}/v1/compute/clusters?limit=50`, connections: per, duration: seconds, headers }),
    ),
  );
  return {
    rps: rs.reduce((a, r) => a + r.requests.average, 0),
    p50: median(rs.map((r) => r.latency.p50)),
    p99: Math.max(...rs.map((r) => r.latency.p99)),
    errors: rs.reduce((a, r) => a + r.errors + r.non2xx, 0),
  };
}

const bench: Benchmark = {
  name: 'scaleout',
  async run() {
    const srv = await startBenchServer();
    const procs: ChildProcess[] = [];
    const results: BenchResult[] = [];
    try {
      const { stack } = srv;
      const db = new pg.Client({ connectionString: stack.appEnv.DATABASE_URL });
      await db.connect();
      const org = (
        await db.query<{ id: string; p: string }>(
          `SELECT o.id, (SELECT id FROM projects WHERE org_id = o.id LIMIT 1) AS p FROM organizations o WHERE slug = 'acme'`,
        )
      ).rows[0]!;
      for (let i = 0; i < 60; i++) {
        await db.query(
          `INSERT INTO clusters (id, org_id, project_id, region, name, template, node_count, version, status, ready_at, updated_at)
           VALUES ($1, $2, $3, 'sfo1', $4, 'k8s-small', 1, '1.34.1', 'ready', now(), now())`,
          [newId('cls'), org.id, org.p, `bench-so-${i}`],
        );
      }
      await db.end();
      const gateways: GatewaySpec[] = [];
      for (const name of ['sfo1-1', 'sfo1-2']) {
        const port = await freePort();
        const g = { name, region: 'sfo1', port, url: `http://127.0.0.1:${port}` };
        procs.push(
          spawnGateway(
            g,
            { ...process.env, ...stack.appEnv, LOG_LEVEL: 'silent', NODE_ENV: 'production' },
            { stdio: 'ignore' },
          ),
        );
        await waitForHttp(`${g.url}/api/readyz`, 120_000);
        gateways.push(g);
      }
      // The all-in-one server of startBenchServer stays up but idle.
      const reader = {
        authorization: `Bearer ${stack.credentials.api_keys.find((k) => k.org === 'acme' && k.region === 'sfo1')!.key}`,
      };
      const writerKey = stack.credentials.api_keys.find((k) => k.org === 'globex' && k.region === 'sfo1')!.key;
      const [a, b] = gateways.map((g) => g.url) as [string, string];
      // Past the 30 s after each gateway started listening (its floor), as in steady state.
      await new Promise((r) => setTimeout(r, 31_000));
      await fire([a], reader, 2);
      await fire([a, b], reader, 2);

      // A writer through gateway b at a steady pace while the reads run (phase "with writes").
      let writing = false;
      let writes = 0;
      const writer = async () => {
        while (writing) {
          const r = await fetch(`${b}/v1/projects`, {
            method: 'POST',
            headers: { authorization: `Bearer ${writerKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `w-${Date.now().toString(36)}-${writes}` }),
          });
          await r.arrayBuffer();
          if (r.status === 201) writes++;
          await new Promise((res) => setTimeout(res, 40));
        }
      };
      const phases: Record<string, { rps: number[]; p50: number[]; p99: number[]; errors: number }> = {};
      const record = (name: string, r: Awaited<ReturnType<typeof fire>>) => {
        phases[name] ??= { rps: [], p50: [], p99: [], errors: 0 };
        phases[name].rps.push(r.rps);
        phases[name].p50.push(r.p50);
        phases[name].p99.push(r.p99);
        phases[name].errors += r.errors;
      };
      for (let i = 0; i < ROUNDS; i++) {
        record('1 gateway process', await fire([a], reader, SECONDS));
        record('2 gateway processes (load split)', await fire([a, b], reader, SECONDS));
        writing = true;
        const w = writer();
        record('1 gateway, another principal writing through the other', await fire([a], reader, SECONDS));
        writing = false;
        await w;
      }
      for (const [name, p] of Object.entries(phases)) {
        results.push({
          name: `${name}: GET /v1/compute/clusters?limit=50 by a key that did not write (${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS}, medians)`,
          figures: {
            req_per_s: Math.round(median(p.rps)),
            p50_ms: median(p.p50),
            p99_ms: median(p.p99),
            errors: p.errors,
          },
        });
      }
      results.push({ name: 'writes made by the other principal during the "writing" phases', figures: { writes } });

      // Stickiness cost: create on one gateway, read it at once on the other, no bookmark echoed.
      const sticky: number[] = [];
      const plain: number[] = [];
      let stale = 0;
      for (let i = 0; i < CYCLES; i++) {
        const [w, r] = i % 2 ? [a, b] : [b, a];
        const created = await fetch(`${w}/v1/projects`, {
          method: 'POST',
          headers: { authorization: `Bearer ${writerKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `s-${Date.now().toString(36)}-${i}` }),
        });
        const { id } = (await created.json()) as { id: string };
        let t = performance.now();
        const got = await fetch(`${r}/v1/projects/${id}`, { headers: { authorization: `Bearer ${writerKey}` } });
        await got.arrayBuffer();
        sticky.push(performance.now() - t);
        if (got.status !== 200) stale++;
        t = performance.now();
        const other = await fetch(`${r}/v1/projects`, { headers: reader });
        await other.arrayBuffer();
        plain.push(performance.now() - t);
      }
      results.push({
        name: `read right after its principal's write on the other gateway, no bookmark echoed (${CYCLES} cycles)`,
        figures: { ...summarize(sticky, 'ms'), stale },
      });
      results.push({
        name: 'read by a principal that did not write, same moments',
        figures: summarize(plain, 'ms'),
      });
    } finally {
      for (const p of procs) {
        p.kill('SIGTERM');
        await new Promise((r) => p.once('exit', r));
      }
      await srv.stop();
    }
    return results;
  },
};

export default bench;
