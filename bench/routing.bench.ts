// Region routing overhead: the resolution cascade in process, and a trivial procedure through the
// whole chain against a bare Next route handler on the same server (docs/performance.md).
import { resolveRegion, type ResolveInput } from '../server/region/cascade';
import { resolveRequestRegion } from '../server/api/middleware/stages/resolve-region';
import { ANONYMOUS } from '../server/auth/identity';
import { benchRegistry, summarize, type Benchmark, type BenchResult } from './lib';
import { load, startBenchServer } from './server';

const CALLS = 100_000;

function resolutionInputs(): ResolveInput[] {
  const known = new Set(['sfo1', 'lax1', 'ams1']);
  const session = { orgRegion: null, allowedRegions: ['sfo1', 'lax1', 'ams1'] };
  return [
    { method: 'GET', subdomain: 'lax1', known, session },
    { method: 'GET', header: 'ams1', known, session },
    { method: 'GET', query: 'sfo1', known, session },
    { method: 'POST', body: { region: 'ams1', name: 'x' }, known, session },
    { method: 'GET', session: { orgRegion: 'sfo1', allowedRegions: ['sfo1'] }, known },
    { method: 'GET', known, session },
    { method: 'POST', known, session },
    { method: 'GET', header: 'SFO', known },
  ];
}

function timeEach(n: number, fn: (i: number) => void): number[] {
  const samples = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn(i);
    samples[i] = (performance.now() - t) * 1000;
  }
  return samples;
}

const bench: Benchmark = {
  name: 'routing',
  async run() {
    const results: BenchResult[] = [];
    const inputs = resolutionInputs();
    timeEach(20_000, (i) => resolveRegion(inputs[i % inputs.length]!)); // warm-up
    results.push({
      name: `resolveRegion (pure cascade), ${CALLS} calls over ${inputs.length} request shapes (µs)`,
      figures: summarize(
        timeEach(CALLS, (i) => resolveRegion(inputs[i % inputs.length]!)),
        'us',
      ),
    });

    const registry = benchRegistry();
    const reqs = ([{ 'x-region': 'ams1' }, {}, { host: 'lax1.localhost:3000' }] as Record<string, string>[]).map(
      (h) => ({
        transport: 'rest' as const,
        method: 'GET',
        url: new URL('http://localhost:3000/v1/compute/clusters?limit=10'),
        headers: new Headers({ host: 'localhost:3000', ...h }),
        setHeader: () => {},
      }),
    );
    const step = async (i: number) =>
      resolveRequestRegion({
        req: reqs[i % reqs.length]!,
        identity: ANONYMOUS,
        registry,
        gatewayRegion: 'global',
        rawInput: {},
        mutation: false,
      });
    for (let i = 0; i < 20_000; i++) await step(i);
    const stepSamples: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const t = performance.now();
      await step(i);
      stepSamples.push((performance.now() - t) * 1000);
    }
    results.push({
      name: `middleware resolution step (headers, host, query → region), ${CALLS} calls (µs)`,
      figures: summarize(stepSamples, 'us'),
    });

    // Full chain vs bare handler, over HTTP, on one server.
    const srv = await startBenchServer();
    try {
      const base = srv.baseUrl;
      const N = 3000;
      const C = 8;
      await load(`${base}/v1/ping`, 500, C);
      await load(`${base}/api/livez`, 500, C);
      const chain = await load(`${base}/v1/ping`, N, C);
      const bare = await load(`${base}/api/livez`, N, C);
      const c = summarize(chain.latencies, 'ms');
      const b = summarize(bare.latencies, 'ms');
      results.push({
        name: `GET /v1/ping through the full chain, ${N} requests at concurrency ${C}`,
        figures: { ...c, req_per_s: Math.round(N / chain.seconds) },
      });
      results.push({
        name: `GET /api/livez, a bare route handler, ${N} requests at concurrency ${C}`,
        figures: { ...b, req_per_s: Math.round(N / bare.seconds) },
      });
      results.push({
        name: 'full chain / bare handler',
        figures: {
          p50_ratio: Math.round((c.p50_ms! / b.p50_ms!) * 100) / 100,
          p99_ratio: Math.round((c.p99_ms! / b.p99_ms!) * 100) / 100,
          throughput_ratio: Math.round((N / chain.seconds / (N / bare.seconds)) * 100) / 100,
        },
      });
    } finally {
      await srv.stop();
    }
    return results;
  },
};

export default bench;
