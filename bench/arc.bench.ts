// Arc through the full chain: cluster create → 202, the cluster list for one region and fanned out
// over three, and the workflow engine's cost per step (docs/performance.md#the-hot-path).
import { encode } from 'next-auth/jwt';
import { disconnectAll, primary } from '../server/db/client';
import { resetEnvCache } from '../server/env';
import { newId } from '../server/ids';
import { startWorkers } from '../server/worker/workers';
import { prefixed, summarize, type Benchmark, type BenchResult } from './lib';
import { load, send, startBenchServer } from './server';

/** Creates per round and client (concurrency 4). */
const CREATES = 200;
const ROUNDS = 3;
/** Creates before any is measured (in another region): see the warm-up below. */
const WARM_UP = 1200;
const LIST = 2000;
const C = 8;

/** Enough servers that hundreds of pending clusters never run a region out of capacity. */
async function addServers(region: string, n: number): Promise<void> {
  await primary().server.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      id: newId('srv'),
      region,
      hostname: `${region}-bench-${i}.metal.meridian.internal`,
      zone: `${region}-${i % 2 ? 'a' : 'b'}`,
      rack: 'r99',
      cage: 'c9',
      model: 'bench',
      cpuCores: 64,
      memoryGb: 512,
      storageGb: 15360,
    })),
  });
}

interface BenchRound {
  latencies: number[];
  seconds: number;
}

const bench: Benchmark = {
  name: 'arc',
  async run() {
    const srv = await startBenchServer({ WORKFLOW_STEP_MS: '0' });
    const results: BenchResult[] = [];
    try {
      for (const r of ['sfo1', 'lax1', 'ams1']) await addServers(r, 2000);
      const key = srv.stack.credentials.api_keys.find((k) => k.org === 'globex' && k.region === 'lax1')!.key;
      const auth = { Authorization: `Bearer ${key}` };
      const project = (await primary().project.findFirstOrThrow({ where: { organization: { slug: 'globex' } } })).id;

      // POST /v1/compute/clusters → 202. Sent with node:http (`send`); the same creates sent with
      // fetch, interleaved in the same run, show what a heavier load generator costs the figure.
      const createOnce = async (i: number, client: 'http' | 'fetch' = 'http', as = auth) => {
        const t = performance.now();
        const url = `${srv.baseUrl}/v1/compute/clusters`;
        const init = {
          method: 'POST',
          headers: { ...as, 'Content-Type': 'application/json', 'Idempotency-Key': `bench-${i}` },
          body: JSON.stringify({ name: `bench-${i}`, project_id: project, template: 'k8s-small', node_count: 1 }),
        };
        let status: number;
        if (client === 'http') status = (await send(url, init)).status;
        else {
          const res = await fetch(url, init);
          await res.arrayBuffer();
          status = res.status;
        }
        if (status !== 202) throw new Error(`create answered ${status}`);
        return performance.now() - t;
      };
      // Warm-up: the gateway's code is compiled and optimized by V8 as it runs (a fresh process
      // spends the first thousand requests or so doing that, on the same two cores), and this
      // measures the steady state. In sfo1, so that lax1, measured below, has no extra pending
      // clusters for its capacity check to count.
      const sfo1 = {
        Authorization: `Bearer ${srv.stack.credentials.api_keys.find((k) => k.org === 'globex' && k.region === 'sfo1')!.key}`,
      };
      let warm = 100_000;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (warm < 100_000 + WARM_UP) await createOnce(warm++, 'http', sfo1);
        }),
      );
      for (let i = 0; i < 40; i++) await createOnce(150_000 + i);
      const oneAtATime: number[] = [];
      for (let i = 0; i < 200; i++) oneAtATime.push(await createOnce(200_000 + i));
      results.push({
        name: 'POST /v1/compute/clusters → 202 (200 creates one at a time, API key, Idempotency-Key)',
        figures: summarize(oneAtATime, 'ms'),
        note: 'the latency of one create on an otherwise idle gateway',
      });
      // Four at once, in ROUNDS rounds, each node:http then fetch: the figures are the median
      // round's (the machine's own speed drifts from minute to minute, as the method of
      // interleaved rounds and medians allows for); every round's p95 is in the note.
      const rounds = { http: [] as BenchRound[], fetch: [] as BenchRound[] };
      let next = 0;
      for (let r = 0; r < ROUNDS; r++) {
        for (const client of ['http', 'fetch'] as const) {
          const latencies: number[] = [];
          const end = next + CREATES;
          const t0 = performance.now();
          await Promise.all(
            Array.from({ length: 4 }, async () => {
              while (next < end) latencies.push(await createOnce(next++, client));
            }),
          );
          rounds[client].push({ latencies, seconds: (performance.now() - t0) / 1000 });
        }
      }
      for (const client of ['http', 'fetch'] as const) {
        const each = rounds[client].map((r): Record<string, number> => ({
          ...summarize(r.latencies, 'ms'),
          req_per_s: Math.round(r.latencies.length / r.seconds),
        }));
        const median = [...each].sort((a, b) => a.p95_ms! - b.p95_ms!)[Math.floor(each.length / 2)]!;
        results.push({
          name: `POST /v1/compute/clusters → 202 (${ROUNDS} rounds of ${CREATES} creates, concurrency 4, API key, Idempotency-Key; client: ${client === 'http' ? 'node:http' : 'fetch'}; the median round)`,
          figures: median,
          note:
            `every round's p95: ${each.map((e) => e.p95_ms).join(', ')} ms. ` +
            (client === 'http'
              ? 'One statement on the primary (cluster, run, steps, pg-boss job, idempotency record), then one for the bookmark, the notice to the gateways and the workers’ wake-up'
              : 'The same creates, interleaved with the ones above, sent with fetch: its extra client CPU competes for the same two cores'),
        });
      }
      await new Promise((r) => setTimeout(r, 1500)); // replicas replay; probes record it

      // GET /v1/compute/clusters: one region (the key's), then fan-out (a session).
      const single = `${srv.baseUrl}/v1/compute/clusters?limit=50`;
      await load(single, 300, C, auth);
      const one = await load(single, LIST, C, auth);
      results.push({
        name: `GET /v1/compute/clusters, one region (lax1, API key; ${LIST} requests, concurrency ${C}, 50 per page)`,
        figures: { ...summarize(one.latencies, 'ms'), req_per_s: Math.round(LIST / one.seconds) },
        note: `served by ${[...new Set(one.headers.map((h) => h.get('X-Meridian-Served-By')))].join(',')}`,
      });
      const bob = await primary().user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } });
      const salt = 'authjs.session-token';
      const token = await encode({
        token: {
          uid: bob.id,
          org: (await primary().organization.findUniqueOrThrow({ where: { slug: 'globex' } })).id,
          sub: bob.id,
        },
        secret: srv.stack.appEnv.AUTH_SECRET!,
        salt,
      });
      const session = { cookie: `${salt}=${token}` };
      await load(single, 300, C, session);
      const fan = await load(single, LIST, C, session);
      results.push({
        name: `GET /v1/compute/clusters, fan-out over sfo1 lax1 ams1 (session; ${LIST} requests, concurrency ${C})`,
        figures: { ...summarize(fan.latencies, 'ms'), req_per_s: Math.round(LIST / fan.seconds) },
        note: `X-Region-Source ${fan.headers[0]?.get('X-Region-Source')}; each region read on its own replica`,
      });
      results.push({
        name: 'fan-out vs one region',
        figures: {
          p95_ratio:
            Math.round((summarize(fan.latencies, 'ms').p95_ms! / summarize(one.latencies, 'ms').p95_ms!) * 100) / 100,
          throughput_ratio:
            Math.round((fan.latencies.length / fan.seconds / (one.latencies.length / one.seconds)) * 100) / 100,
        },
      });

      // The engine's own cost, with steps that take 0 ms, on one lax1 worker process (4 slots,
      // polling every 0.5 s): 5 runs one after another, then 20 at once.
      const runs = await primary().workflowRun.findMany({
        where: { kind: 'create-cluster', status: 'queued', region: 'lax1' },
        select: { id: true },
        take: 25,
      });
      const ids = runs.map((r) => r.id);
      // Hold every queued lax1 job back; release the ones being measured.
      await primary().$executeRaw`
        UPDATE pgboss.job SET start_after = now() + interval '1 day' WHERE name = 'workflow-lax1' AND state = 'created'`;
      const release = (some: string[]) => primary().$executeRaw`
        UPDATE pgboss.job SET start_after = now() WHERE name = 'workflow-lax1' AND state = 'created'
          AND data->>'runId' = ANY(${some})`;
      const finishedAll = async (some: string[]) => {
        const deadline = Date.now() + 120_000;
        while (Date.now() < deadline) {
          const left = await primary().workflowRun.count({
            where: { id: { in: some }, status: { in: ['queued', 'running'] } },
          });
          if (left === 0) return;
          await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error('runs did not finish in 2 minutes');
      };
      process.env.WORKFLOW_STEP_MS = '0';
      process.env.WORKFLOW_POLL_SECONDS = '0.5';
      resetEnvCache();
      const workers = await startWorkers({ connectionString: srv.stack.appEnv.DATABASE_URL!, regions: ['lax1'] });
      for (const id of ids.slice(0, 5)) {
        await release([id]);
        await finishedAll([id]);
      }
      const batch = ids.slice(5);
      const t1 = performance.now();
      await release(batch);
      await finishedAll(batch);
      const batchSeconds = (performance.now() - t1) / 1000;
      // Through the API with the worker idle: POST → 202, then how soon its first step starts
      // (NOTIFY at commit wakes the worker) and when the cluster is ready.
      const accepted: { first: number; ready: number }[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await fetch(`${srv.baseUrl}/v1/compute/clusters`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `live-${i}`, project_id: project, template: 'k8s-small', node_count: 1 }),
        });
        const { run_id } = (await res.json()) as { run_id: string };
        await finishedAll([run_id]);
        const r = await primary().workflowRun.findUniqueOrThrow({ where: { id: run_id } });
        accepted.push({
          first: r.startedAt!.getTime() - r.createdAt.getTime(),
          ready: r.finishedAt!.getTime() - r.createdAt.getTime(),
        });
        await new Promise((r) => setTimeout(r, 300)); // idle again
      }
      await workers.stop({ graceful: true });
      const done = await primary().workflowRun.findMany({
        where: { id: { in: ids } },
        include: { steps: { orderBy: { position: 'asc' } } },
      });
      const serial = done.filter((r) => ids.slice(0, 5).includes(r.id));
      const span = (r: (typeof done)[number]) => r.finishedAt!.getTime() - r.startedAt!.getTime();
      const gaps = serial.flatMap((r) =>
        r.steps.slice(1).map((st, i) => st.startedAt!.getTime() - r.steps[i]!.finishedAt!.getTime()),
      );
      results.push({
        name: 'workflow engine, 0 ms steps, one at a time (5 create-cluster runs on one lax1 worker)',
        figures: {
          succeeded: serial.filter((r) => r.status === 'succeeded').length,
          ...prefixed('run', summarize(serial.map(span), 'ms')),
          ...prefixed('step_gap', summarize(gaps, 'ms')),
        },
        note: 'run = first step started → last step committed (5 steps); step gap = a step committed → the next started',
      });
      results.push({
        name: 'accepted (202) → first step started / → ready, 0 ms steps, idle lax1 worker (10 creates via the API)',
        figures: {
          ...prefixed(
            'first_step',
            summarize(
              accepted.map((a) => a.first),
              'ms',
            ),
          ),
          ...prefixed(
            'ready',
            summarize(
              accepted.map((a) => a.ready),
              'ms',
            ),
          ),
        },
        note: 'created_at is stamped inside the transaction, so this includes the commit',
      });
      results.push({
        name: 'workflow engine, 0 ms steps, 20 runs at once (4 slots)',
        figures: {
          succeeded: done.filter((r) => batch.includes(r.id) && r.status === 'succeeded').length,
          wall_s: Math.round(batchSeconds * 100) / 100,
          steps_per_s: Math.round((batch.length * 5) / batchSeconds),
        },
      });
    } finally {
      await disconnectAll();
      await srv.stop();
    }
    return results;
  },
};

export default bench;
