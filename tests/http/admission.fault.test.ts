// Past capacity the gateway answers quickly and retryably instead of timing out: the real app
// server, started with room for 4 requests and a 100 ms queue wait, under 300 concurrent
// requests that each hold a database connection for a while.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBenchServer, type BenchServer } from '../../bench/server';
import { contractFetch } from '../../dev/testing/contract';

let srv: BenchServer;
beforeAll(async () => {
  // All 300 come from one address: its own cap (MERIDIAN_MAX_PER_PEER) is not what this measures.
  srv = await startBenchServer({
    MERIDIAN_MAX_IN_FLIGHT: '4',
    MERIDIAN_QUEUE_WAIT_MS: '100',
    MERIDIAN_MAX_PER_PEER: '1000',
  });
}, 300_000);
afterAll(async () => {
  await srv?.stop();
});

describe('admission control', () => {
  it('answers 503 overloaded with Retry-After past capacity, the rest 200, none slow', async () => {
    const key = srv.stack.credentials.api_keys.find((k) => k.org === 'globex' && k.region === 'sfo1')!.key;
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 300 }, async () => {
        const t = performance.now();
        const res = await contractFetch(`${srv.baseUrl}/v1/compute/clusters?limit=200`, {
          headers: { authorization: `Bearer ${key}` },
        });
        const body = (await res.json()) as { error?: { code: string; request_id: string } };
        return { status: res.status, ms: performance.now() - t, retryAfter: res.headers.get('retry-after'), body };
      }),
    );
    const refused = results.filter((r) => r.status === 503);
    const ok = results.filter((r) => r.status === 200);
    console.log(
      `[admission] ${ok.length} × 200, ${refused.length} × 503 in ${Math.round(performance.now() - started)} ms; ` +
        `slowest refusal ${Math.round(Math.max(...refused.map((r) => r.ms)))} ms`,
    );
    expect(ok.length + refused.length).toBe(300);
    expect(ok.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.body.error?.code).toBe('overloaded');
      expect(r.body.error?.request_id).toMatch(/^req_/);
      expect(r.retryAfter).toBe('1');
    }
    // Health probes are answered whatever the load.
    expect((await fetch(`${srv.baseUrl}/api/livez`)).status).toBe(200);
  }, 120_000);
});
