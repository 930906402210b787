// The cost of decision records (issue 15: under 5% of throughput): the same hot route (GET
// /v1/projects with acme's API key, 8 connections) against two gateway processes on one stack,
// one recording decisions (the default) and one with MERIDIAN_DECISION_LOG=off, in interleaved
// rounds so that both see the same machine. Reports req/s, p50 and p95 of each (medians of the
// rounds) and the ratio. Also counts the records the "on" process stored, so a run that recorded
// nothing (no wiring) is visible as such.
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { appServerCommand } from '../dev/app-server';
import { freePort, waitForHttp } from '../dev/ports';
import type { Benchmark, BenchResult } from './lib';
import { startBenchServer } from './server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 8;

interface Round {
  rps: number;
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function storedRecords(databaseUrl: string): Promise<number> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM request_decisions')).rows[0]!.n);
  } finally {
    await c.end();
  }
}

const bench: Benchmark = {
  name: 'decisions',
  async run() {
    // "on": the bench server itself (recording is the default); "off": a second gateway process
    // on the same databases with the switch off.
    const on = await startBenchServer({ MERIDIAN_DECISION_LOG: 'on', ATLAS_SAMPLER: 'off' });
    let off: ChildProcess | undefined;
    try {
      const { stack } = on;
      const port = await freePort();
      const app = appServerCommand(port);
      off = spawn(process.execPath, app.args, {
        env: {
          ...process.env,
          ...stack.appEnv,
          ...app.env,
          LOG_LEVEL: 'silent',
          MERIDIAN_DECISION_LOG: 'off',
          ATLAS_SAMPLER: 'off',
        },
        stdio: 'ignore',
      });
      const offUrl = `http://127.0.0.1:${port}`;
      await waitForHttp(`${offUrl}/api/livez`, 60_000);

      const key = stack.credentials.api_keys.find((k) => k.org === 'acme' && k.region === 'sfo1')!.key;
      const target = (base: string) => ({
        url: `${base}/v1/projects`,
        headers: { host: `sfo1.localhost:${new URL(base).port}`, authorization: `Bearer ${key}` },
      });
      const servers = { on: target(on.baseUrl), off: target(offUrl) };
      for (const s of Object.values(servers)) {
        const res = await fetch(s.url, { headers: s.headers });
        if (res.status !== 200) throw new Error(`${s.url}: ${res.status} ${await res.text()}`);
        await fire(s.url, s.headers, 2); // warm-up
      }
      const before = await storedRecords(stack.appEnv.DATABASE_URL!);
      const rounds: Record<'on' | 'off', Round[]> = { on: [], off: [] };
      for (let i = 0; i < ROUNDS; i++) {
        // Alternate which goes first, so neither always follows the other's tail.
        const order: ('on' | 'off')[] = i % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
        for (const which of order) rounds[which].push(await fire(servers[which].url, servers[which].headers, SECONDS));
      }
      await new Promise((r) => setTimeout(r, 1_000)); // the last batch lands
      const recorded = (await storedRecords(stack.appEnv.DATABASE_URL!)) - before;
      const summary = (rs: Round[]) => ({
        req_per_s: Math.round(median(rs.map((r) => r.rps))),
        p50_ms: median(rs.map((r) => r.p50)),
        p95_ms: median(rs.map((r) => r.p95)),
        errors: rs.reduce((a, r) => a + r.errors, 0),
      });
      const fOn = summary(rounds.on);
      const fOff = summary(rounds.off);
      const requestsOn = rounds.on.reduce((a, r) => a + r.rps * SECONDS, 0);
      const results: BenchResult[] = [
        {
          name: `recording ON: GET /v1/projects, API key (${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS} rounds, medians)`,
          figures: {
            ...fOn,
            records_stored: recorded,
            records_per_request: Math.round((recorded / requestsOn) * 100) / 100,
          },
        },
        {
          name: `recording OFF (MERIDIAN_DECISION_LOG=off): same route, same stack`,
          figures: fOff,
        },
        {
          name: 'cost of decision records',
          figures: {
            throughput_on_over_off: Math.round((fOn.req_per_s / fOff.req_per_s) * 1000) / 1000,
            throughput_cost_percent: Math.round((1 - fOn.req_per_s / fOff.req_per_s) * 1000) / 10,
          },
          note: 'goal (issue 15): cost under 5%. records_per_request ≈ 1 once the request middleware records decisions',
        },
      ];
      return results;
    } finally {
      if (off && off.exitCode === null) {
        off.kill('SIGTERM');
        await new Promise((r) => off!.once('exit', r));
      }
      await on.stop();
    }
  },
};

export default bench;
