// Replica reads: what the causal-bookmark check costs when the replica has caught up, and read
// throughput with and without bookmarks, through the full API (API-key auth), in one run.
import { summarize, type Benchmark, type BenchResult } from './lib';
import { load, startBenchServer } from './server';

const N = 3000;
const C = 8;

const bench: Benchmark = {
  name: 'replicas',
  async run() {
    const srv = await startBenchServer();
    const results: BenchResult[] = [];
    try {
      const key = srv.stack.credentials.api_keys.find((k) => k.org === 'globex' && k.region === 'lax1')!.key;
      const auth = { Authorization: `Bearer ${key}` };
      const created = await fetch(`${srv.baseUrl}/v1/projects`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `bench-${Date.now()}` }),
      });
      const bookmark = created.headers.get('X-Meridian-Bookmark')!;
      const { id } = (await created.json()) as { id: string };
      const url = `${srv.baseUrl}/v1/projects/${id}`;
      await new Promise((r) => setTimeout(r, 1500)); // the replica catches up; a probe records it

      await load(url, 500, C, auth);
      await load(url, 500, C, { ...auth, 'X-Meridian-Bookmark': bookmark });
      // Alternate rounds so that warm-up and machine noise fall on both sides alike.
      const plain = { latencies: [] as number[], seconds: 0, headers: [] as Headers[] };
      const withBookmark = { latencies: [] as number[], seconds: 0, headers: [] as Headers[] };
      for (let round = 0; round < 6; round++) {
        for (const [into, headers] of [
          [plain, auth],
          [withBookmark, { ...auth, 'X-Meridian-Bookmark': bookmark }],
        ] as const) {
          const r = await load(url, N / 6, C, headers);
          into.latencies.push(...r.latencies);
          into.seconds += r.seconds;
          into.headers.push(...r.headers);
        }
      }
      const served = (hs: Headers[]) => [...new Set(hs.map((h) => h.get('X-Meridian-Served-By')))].join(',');
      const p = summarize(plain.latencies, 'ms');
      const b = summarize(withBookmark.latencies, 'ms');
      results.push({
        name: `GET /v1/projects/{id}, no bookmark (${N} requests, concurrency ${C})`,
        figures: { ...p, req_per_s: Math.round(N / plain.seconds) },
        note: `served by ${served(plain.headers)}`,
      });
      results.push({
        name: `GET /v1/projects/{id}, with a caught-up bookmark (${N} requests, concurrency ${C})`,
        figures: { ...b, req_per_s: Math.round(N / withBookmark.seconds) },
        note: `served by ${served(withBookmark.headers)}`,
      });
      results.push({
        name: 'bookmark check on a caught-up replica: extra latency and throughput ratio',
        figures: {
          extra_p50_ms: Math.round((b.p50_ms! - p.p50_ms!) * 1000) / 1000,
          extra_p95_ms: Math.round((b.p95_ms! - p.p95_ms!) * 1000) / 1000,
          throughput_ratio: Math.round((N / withBookmark.seconds / (N / plain.seconds)) * 100) / 100,
        },
      });

      // Sequential write → read with its fresh bookmark: how often the replica had it already.
      const cycles: number[] = [];
      const by: Record<string, number> = {};
      for (let i = 0; i < 300; i++) {
        const w = await fetch(`${srv.baseUrl}/v1/projects`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `bench-${Date.now()}-${i}` }),
        });
        const bm = w.headers.get('X-Meridian-Bookmark')!;
        const { id: pid } = (await w.json()) as { id: string };
        const t = performance.now();
        const r = await fetch(`${srv.baseUrl}/v1/projects/${pid}`, { headers: { ...auth, 'X-Meridian-Bookmark': bm } });
        await r.arrayBuffer();
        cycles.push(performance.now() - t);
        const s = r.headers.get('X-Meridian-Served-By') ?? '?';
        by[s] = (by[s] ?? 0) + 1;
      }
      results.push({
        name: 'read right after its own write, with the fresh bookmark (300 cycles, ms)',
        figures: summarize(cycles, 'ms'),
        note: `served by ${JSON.stringify(by)}`,
      });
    } finally {
      await srv.stop();
    }
    return results;
  },
};

export default bench;
