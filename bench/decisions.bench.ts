// The cost of decision records: the same hot route on a fresh gateway a round, recording or
// MERIDIAN_DECISION_LOG=off, modes alternating; their bytes on disk; the primary's CPU at a fixed
// 1,000 requests/s; and what an unauthenticated flood stores (docs/performance.md#decision-records).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { appServerCommand } from '../dev/app-server';
import { freePort, waitForHttp } from '../dev/ports';
import type { Benchmark, BenchResult } from './lib';
import { startBenchServer } from './server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
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

async function onPrimary<T>(databaseUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function storedRecords(databaseUrl: string): Promise<number> {
  return onPrimary(databaseUrl, async (c) =>
    Number(
      (await c.query<{ n: string }>('SELECT coalesce(sum(records), 0) AS n FROM request_decision_batches')).rows[0]!.n,
    ),
  );
}

/** Records, their payloads' bytes, and every byte of the partitions (heap, TOAST, indexes). */
async function storage(databaseUrl: string): Promise<{ records: number; payload: number; disk: number }> {
  return onPrimary(databaseUrl, async (c) => {
    const { rows } = await c.query<{ records: string; payload: string; disk: string }>(
      `SELECT (SELECT coalesce(sum(records), 0) FROM request_decision_batches) AS records,
              (SELECT coalesce(sum(octet_length(payload)), 0) FROM request_decision_batches) AS payload,
              (SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0) FROM pg_inherits i
                WHERE i.inhparent = 'request_decision_batches'::regclass) AS disk`,
    );
    const r = rows[0]!;
    return { records: Number(r.records), payload: Number(r.payload), disk: Number(r.disk) };
  });
}

/** CPU ticks so far of every process of the primary's cluster that pg_stat_activity lists, by PID. */
async function primaryCpuTicks(databaseUrl: string): Promise<Map<number, number>> {
  const pids = await onPrimary(databaseUrl, async (c) =>
    (await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity')).rows.map((r) => r.pid),
  );
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      // utime and stime: fields 14 and 15, after the parenthesised command name.
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(pid, Number(f[11]) + Number(f[12]));
    } catch {
      /* exited */
    }
  }
  return out;
}

/** CPU ticks so far of one process (utime + stime). */
function processTicks(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]);
}

/** CPU seconds between two readings: a process in both by its difference, a new one by its total. */
function cpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks / 100; // USER_HZ on Linux
}

/** A fresh gateway process on the stack's databases, recording decisions or not. */
async function gateway(
  appEnv: Record<string, string>,
  log: 'on' | 'off',
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const app = appServerCommand(port);
  // BENCH_CPU_PROFILE=<dir>: each gateway writes a V8 CPU profile there when it stops, named by its mode.
  const dir = process.env.BENCH_CPU_PROFILE;
  const profile = dir
    ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=decisions-${log}-${port}.cpuprofile`]
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
    // The stack's own server only owns the databases; every round starts a fresh gateway process
    // with the switch on or off (alternating which goes first), so the two modes differ in
    // nothing else: not the process, its port, its warm-up, nor what ran before it.
    const srv = await startBenchServer({ ATLAS_SAMPLER: 'off' });
    try {
      const { stack } = srv;
      const dbUrl = stack.appEnv.DATABASE_URL!;
      const key = stack.credentials.api_keys.find((k) => k.org === 'acme' && k.region === 'sfo1')!.key;
      const rounds: Record<'on' | 'off', Round[]> = { on: [], off: [] };
      let recorded = 0;
      let requestsOn = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const order: ('on' | 'off')[] = i % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
        for (const which of order) {
          const gw = await gateway(stack.appEnv, which);
          try {
            const url = `${gw.url}/v1/projects`;
            const headers = { host: `sfo1.localhost:${new URL(gw.url).port}`, authorization: `Bearer ${key}` };
            await firstAnswer(url, headers);
            await fire(url, headers, 5); // warm-up (a fresh process: JIT, pools)
            const before = await storedRecords(dbUrl);
            const ticks = processTicks(gw.pid);
            const round = await fire(url, headers, SECONDS);
            const cpuSeconds = (processTicks(gw.pid) - ticks) / 100; // USER_HZ
            round.cpuUsPerRequest = (cpuSeconds * 1e6) / Math.max(1, round.rps * SECONDS);
            rounds[which].push(round);
            if (which === 'on') {
              await new Promise((r) => setTimeout(r, 1_000)); // the last batch lands
              recorded += (await storedRecords(dbUrl)) - before;
              requestsOn += round.rps * SECONDS;
            }
          } finally {
            await gw.stop();
          }
        }
      }
      const summary = (rs: Round[]) => ({
        req_per_s: Math.round(median(rs.map((r) => r.rps))),
        p50_ms: median(rs.map((r) => r.p50)),
        p95_ms: median(rs.map((r) => r.p95)),
        gateway_cpu_us_per_request: Math.round(median(rs.map((r) => r.cpuUsPerRequest!))),
        errors: rs.reduce((a, r) => a + r.errors, 0),
      });
      const fOn = summary(rounds.on);
      const fOff = summary(rounds.off);
      // Each round's ON beside its OFF, run back to back: the machine's other load moves both.
      const paired = (f: (r: Round) => number) => median(rounds.on.map((r, i) => f(r) / f(rounds.off[i]!)));
      const pairedThroughput = paired((r) => r.rps);
      const pairedCpu = paired((r) => r.cpuUsPerRequest!);
      const results: BenchResult[] = [
        {
          name: `recording ON: GET /v1/projects, API key (${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS} rounds, a fresh gateway each, medians)`,
          figures: {
            ...fOn,
            records_stored: recorded,
            records_per_request: Math.round((recorded / requestsOn) * 100) / 100,
          },
          note: `req/s of each round: ${rounds.on.map((r) => Math.round(r.rps)).join(', ')}`,
        },
        {
          name: `recording OFF (MERIDIAN_DECISION_LOG=off): same route, same stack`,
          figures: fOff,
          note: `req/s of each round: ${rounds.off.map((r) => Math.round(r.rps)).join(', ')}`,
        },
        {
          name: 'cost of decision records',
          figures: {
            throughput_on_over_off: Math.round(pairedThroughput * 1000) / 1000,
            throughput_cost_percent: Math.round((1 - pairedThroughput) * 1000) / 10,
            gateway_cpu_on_over_off: Math.round(pairedCpu * 1000) / 1000,
            gateway_cpu_cost_percent: Math.round((pairedCpu - 1) * 1000) / 10,
          },
          note:
            "medians of each round's ON over its OFF, run back to back; goal: cost under 3% " +
            '(a negative cost is noise in the favour of recording; CPU a request is the steadier figure on a busy machine)',
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
