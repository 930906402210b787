// The cost of decision records: the same hot route on a fresh gateway a round, recording or
// MERIDIAN_DECISION_LOG=off, modes alternating (docs/performance.md#decision-records).
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { appServerCommand } from '../dev/app-server';
import { freePort, waitForHttp } from '../dev/ports';
import type { Benchmark, BenchResult } from './lib';
import { startBenchServer } from './server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
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

/** A fresh gateway process on the stack's databases, recording decisions or not. */
async function gateway(
  appEnv: Record<string, string>,
  log: 'on' | 'off',
): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const app = appServerCommand(port);
  const child: ChildProcess = spawn(process.execPath, app.args, {
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
            const res = await fetch(url, { headers });
            if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
            await fire(url, headers, 5); // warm-up (a fresh process: JIT, pools)
            const before = await storedRecords(stack.appEnv.DATABASE_URL!);
            const round = await fire(url, headers, SECONDS);
            rounds[which].push(round);
            if (which === 'on') {
              await new Promise((r) => setTimeout(r, 1_000)); // the last batch lands
              recorded += (await storedRecords(stack.appEnv.DATABASE_URL!)) - before;
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
        errors: rs.reduce((a, r) => a + r.errors, 0),
      });
      const fOn = summary(rounds.on);
      const fOff = summary(rounds.off);
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
            throughput_on_over_off: Math.round((fOn.req_per_s / fOff.req_per_s) * 1000) / 1000,
            throughput_cost_percent: Math.round((1 - fOn.req_per_s / fOff.req_per_s) * 1000) / 10,
          },
          note: 'goal (issue 15): cost under 5% (a negative cost is run-to-run noise in the favour of recording)',
        },
      ];
      return results;
    } finally {
      await srv.stop();
    }
  },
};

export default bench;
