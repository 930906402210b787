// The cost of decision records: two live gateways, one recording and one with
// MERIDIAN_DECISION_LOG=off, loaded in turn in short slices (a fresh pair a round); their bytes on
// disk; the primary's CPU at a fixed 1,000 requests/s; and what an unauthenticated flood stores
// (docs/performance.md#decision-records).
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { appServerCommand } from '../dev/app-server';
import { freePort, waitForHttp } from '../dev/ports';
import type { Benchmark, BenchResult } from './lib';
import { cpuSecondsBetween, primaryCpuTicks, processTicks, storage, storedRecords } from './decisions-measures';
import { startBenchServer } from './server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** A round: a fresh pair of gateways, loaded in turn for SLICES pairs of slices of SLICE_SECONDS. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SLICES = Number(process.env.BENCH_SLICES ?? 12);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 2);
const AA_CONTROL = process.env.BENCH_DECISIONS_AA === '1';
const CONNECTIONS = 8;
/** The fixed rate of the CPU measure (the seed's figure for one gateway). */
const RATE = 1_000;

interface Round {
  rps: number;
  /** The gateway process's CPU (user + system) a request, in µs: steadier than req/s on a shared machine. */
  cpuUsPerRequest?: number;
  p50: number;
  p95: number;
  errors: number;
}

async function fire(url: string, headers: Record<string, string>, seconds: number): Promise<Round> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  const latency = r.latency as unknown as Record<string, number>;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p95: latency.p97_5 ?? r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

/** Until the fresh gateway answers 200 (its health signals arrive a moment after it listens). */
async function firstAnswer(url: string, headers: Record<string, string>): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(url, { headers });
    if (res.status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A fresh gateway process on the stack's databases, recording decisions or not. */
async function gateway(
  appEnv: Record<string, string>,
  log: 'on' | 'off',
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const app = appServerCommand(port);
  // BENCH_CPU_PROFILE=<dir>: each gateway writes its V8 CPU profiles when it stops, in a folder named by its mode.
  const dir = process.env.BENCH_CPU_PROFILE;
  const profile = dir
    ? // A folder each: every thread (tsx's loader too) writes its own profile, and one name would
      // keep only the last thread's.
      ['--cpu-prof', `--cpu-prof-dir=${dir}/decisions-${log}-${port}`]
    : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, ...app.args], {
    env: {
      ...process.env,
      ...appEnv,
      ...app.env,
      LOG_LEVEL: 'silent',
      MERIDIAN_DECISION_LOG: log,
      ATLAS_SAMPLER: 'off',
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/api/livez`, 60_000);
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const bench: Benchmark = {
  name: 'decisions',
  async run() {
    // The stack's own server only owns the databases. A round starts a fresh pair of gateway
    // processes, one recording and one not, and loads them in turn, a slice each, the order
    // alternating: both live through the same seconds of the machine's other load, so each
    // slice's ON is judged against the OFF beside it (a fresh process a round: no one process's
    // luck decides). Runs of separate processes a round (before 2026-12-07) swung ±10 %.
    const srv = await startBenchServer({ ATLAS_SAMPLER: 'off' });
    try {
      const { stack } = srv;
      const dbUrl = stack.appEnv.DATABASE_URL!;
      const key = stack.credentials.api_keys.find((k) => k.org === 'acme' && k.region === 'sfo1')!.key;
      const slices: Record<'on' | 'off', Round[]> = { on: [], off: [] };
      let recorded = 0;
      let requestsOn = 0;
      for (let i = 0; i < ROUNDS; i++) {
        // BENCH_DECISIONS_AA=1: the "ON" gateway records nothing either, so the cost it reports
        // is the method's own bias and noise (an A/A control).
        const gws = {
          on: await gateway(stack.appEnv, AA_CONTROL ? 'off' : 'on'),
          off: await gateway(stack.appEnv, 'off'),
        };
        try {
          const target = (which: 'on' | 'off') => ({
            url: `${gws[which].url}/v1/projects`,
            headers: { host: `sfo1.localhost:${new URL(gws[which].url).port}`, authorization: `Bearer ${key}` },
          });
          for (const which of ['on', 'off'] as const) {
            const t = target(which);
            await firstAnswer(t.url, t.headers);
            await fire(t.url, t.headers, 5); // warm-up (a fresh process: JIT, pools)
          }
          const before = await storedRecords(dbUrl);
          for (let j = 0; j < SLICES; j++) {
            const order: ('on' | 'off')[] = j % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
            for (const which of order) {
              const t = target(which);
              const ticks = processTicks(gws[which].pid);
              const slice = await fire(t.url, t.headers, SLICE_SECONDS);
              const cpuSeconds = (processTicks(gws[which].pid) - ticks) / 100; // USER_HZ
              slice.cpuUsPerRequest = (cpuSeconds * 1e6) / Math.max(1, slice.rps * SLICE_SECONDS);
              slices[which].push(slice);
              if (which === 'on') requestsOn += slice.rps * SLICE_SECONDS;
            }
          }
          await new Promise((r) => setTimeout(r, 1_000)); // the last batch lands
          recorded += (await storedRecords(dbUrl)) - before;
        } finally {
          await gws.on.stop();
          await gws.off.stop();
        }
      }
      const summary = (rs: Round[]) => ({
        req_per_s: Math.round(median(rs.map((r) => r.rps))),
        p50_ms: median(rs.map((r) => r.p50)),
        p95_ms: median(rs.map((r) => r.p95)),
        gateway_cpu_us_per_request: Math.round(median(rs.map((r) => r.cpuUsPerRequest!))),
        errors: rs.reduce((a, r) => a + r.errors, 0),
      });
      const fOn = summary(slices.on);
      const fOff = summary(slices.off);
      // Each slice's ON over the OFF beside it: their median, and the middle half's spread.
      const ratios = (f: (r: Round) => number) =>
        slices.on.map((r, i) => f(r) / f(slices.off[i]!)).sort((a, b) => a - b);
      const quartiles = (xs: number[]) => [xs[Math.floor(xs.length / 4)]!, xs[Math.floor((3 * xs.length) / 4)]!];
      const pct = (x: number) => Math.round((x - 1) * 1000) / 10;
      const rps = ratios((r) => r.rps);
      const cpu = ratios((r) => r.cpuUsPerRequest!);
      const range = (xs: number[], sign: 1 | -1) =>
        quartiles(xs)
          .map((q) => sign * pct(q))
          .sort((a, b) => a - b)
          .map((x) => `${x} %`)
          .join(' to ');
      const how = `${CONNECTIONS} connections, ${ROUNDS} rounds × ${SLICES} slices of ${SLICE_SECONDS} s`;
      const results: BenchResult[] = [
        {
          name: `recording ON: GET /v1/projects, API key (${how}, medians of slices)`,
          figures: {
            ...fOn,
            records_stored: recorded,
            records_per_request: Math.round((recorded / requestsOn) * 100) / 100,
          },
        },
        {
          name: `recording OFF (MERIDIAN_DECISION_LOG=off): same route, same stack, the same seconds`,
          figures: fOff,
        },
        {
          name: 'cost of decision records',
          figures: {
            throughput_on_over_off: Math.round(median(rps) * 1000) / 1000,
            throughput_cost_percent: -pct(median(rps)),
            gateway_cpu_on_over_off: Math.round(median(cpu) * 1000) / 1000,
            gateway_cpu_cost_percent: pct(median(cpu)),
          },
          note:
            `medians of each slice's ON over the OFF beside it; the middle half of slices: throughput cost ` +
            `${range(rps, -1)}, CPU cost ${range(cpu, 1)}; goal: cost under 3% (a negative cost is noise ` +
            'in the favour of recording)',
        },
      ];

      // Storage: what the ON rounds stored, as PostgreSQL holds it.
      const disk = await storage(dbUrl);
      results.push({
        name: `storage: ${disk.records} records in compressed batches (hourly UNLOGGED partitions)`,
        figures: {
          bytes_on_disk_per_record: Math.round(disk.disk / disk.records),
          payload_bytes_per_record: Math.round((disk.payload / disk.records) * 10) / 10,
        },
        note: 'goal: ≤ 150 bytes on disk a record (heap, TOAST, both indexes, each partition’s fixed pages)',
      });

      // The primary's CPU at a fixed 1,000 requests/s (reads: only the records reach the primary).
      for (const which of ['on', 'off'] as const) {
        const gw = await gateway(stack.appEnv, which);
        try {
          const url = `${gw.url}/v1/projects`;
          const headers = { host: `sfo1.localhost:${new URL(gw.url).port}`, authorization: `Bearer ${key}` };
          await firstAnswer(url, headers);
          await fire(url, headers, 3);
          const cpu0 = await primaryCpuTicks(dbUrl);
          const t0 = performance.now();
          const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers, overallRate: RATE });
          const cpu = cpuSecondsBetween(cpu0, await primaryCpuTicks(dbUrl));
          const wall = (performance.now() - t0) / 1000;
          results.push({
            name: `primary CPU at ${RATE} req/s, recording ${which.toUpperCase()} (GET /v1/projects, ${SECONDS} s)`,
            figures: {
              achieved_req_per_s: Math.round(r.requests.average),
              primary_cpu_percent_of_a_core: Math.round((cpu / wall) * 1000) / 10,
            },
          });
        } finally {
          await gw.stop();
        }
      }

      // Junk: an unauthenticated flood (401s) as fast as it goes; the sampler keeps a few a second.
      const gw = await gateway(stack.appEnv, 'on');
      try {
        const url = `${gw.url}/v1/projects`;
        const before = await storedRecords(dbUrl);
        const r = await autocannon({
          url,
          connections: CONNECTIONS,
          duration: SECONDS,
          headers: { host: `sfo1.localhost:${new URL(gw.url).port}` },
        });
        await new Promise((res) => setTimeout(res, 1_000));
        const stored = (await storedRecords(dbUrl)) - before;
        results.push({
          name: `unauthenticated flood: GET /v1/projects without a key, ${SECONDS} s, one gateway`,
          figures: { requests: r.requests.total, records_stored: stored },
          note: 'refusals are sampled: a burst of 200, then 20 a second per gateway',
        });
      } finally {
        await gw.stop();
      }
      return results;
    } finally {
      await srv.stop();
    }
  },
};

export default bench;
