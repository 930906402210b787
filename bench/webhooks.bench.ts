// Webhook delivery (docs/flows/webhooks.md#measured): deliveries per second of one region's worker
// to a local receiver; from a cluster turning ready to its `cluster.ready` arriving, over the app
// and the workflow workers at the default step time; and a receiver that answers 500 five times
// then 200, on the schedule shrunk by WEBHOOK_RETRY_SCALE.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { primary } from '../server/db/client';
import { resetEnvCache } from '../server/env';
import { newId } from '../server/ids';
import { startWebhookWorkers, type WebhookWorkers } from '../server/webhooks/delivery';
import { emitWebhook } from '../server/webhooks/events';
import { RETRY_DELAYS_SECONDS } from '../server/webhooks/schedule';
import { sealSigningSecret } from '../server/webhooks/secrets';
import { startWorkers } from '../server/worker/workers';
import { summarize, type Benchmark, type BenchResult } from './lib';
import { startBenchServer } from './server';

const EVENTS = 2_000;
const CLUSTERS = 12;
const RETRY_SCALE = 0.002; // the 24 h schedule in about 3 minutes; its first five waits in under 6 s
const REGIONS = ['sfo1', 'lax1', 'ams1'];

interface Arrival {
  path: string;
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
  at: number;
  status: number;
}

/** A receiver on loopback: answers each path's script (its last answer repeats), else 200. */
async function receiver() {
  const arrivals: Arrival[] = [];
  const script = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<Arrival, 'path' | 'at' | 'status'>;
      const s = script.get(req.url!) ?? [200];
      const status = s.length > 1 ? s.shift()! : s[0]!;
      arrivals.push({ ...body, path: req.url!, at, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { arrivals, script, base, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const endpoint = async (orgId: string, url: string, eventTypes: string[]) => {
  const id = newId('whk');
  await primary().webhookEndpoint.create({
    data: { id, orgId, url, eventTypes, secretSealed: sealSigningSecret(id, `whsec_${id}`) },
  });
  return id;
};

const bench: Benchmark = {
  name: 'webhooks',
  async run() {
    // Retries are found by polling (a NOTIFY wakes only first attempts): poll often at this scale.
    const shared = { WEBHOOK_ALLOW_LOOPBACK: 'on', WEBHOOK_RETRY_SCALE: String(RETRY_SCALE), WEBHOOK_POLL_MS: '50' };
    const srv = await startBenchServer(shared);
    Object.assign(process.env, shared); // this process's workers deliver to loopback too
    resetEnvCache();
    const hooks = await receiver();
    const connectionString = srv.stack.appEnv.DATABASE_URL!;
    const workflows = await startWorkers({ connectionString, regions: REGIONS });
    let webhooks: WebhookWorkers | undefined;
    const results: BenchResult[] = [];
    try {
      const acme = await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } });
      // globex runs in every region: its global key creates clusters in each.
      const globex = await primary().organization.findUniqueOrThrow({ where: { slug: 'globex' } });
      const key = srv.stack.credentials.global_api_keys.find((k) => k.org === 'globex')!.key;

      // 1. Throughput: EVENTS deliveries waiting, then one region's worker starts.
      await endpoint(acme.id, `${hooks.base}/load`, ['api_key.created']);
      for (let i = 0; i < EVENTS; i += 200)
        await primary().$transaction(async (tx) => {
          for (let j = i; j < Math.min(EVENTS, i + 200); j++)
            await emitWebhook(tx, acme.id, 'api_key.created', { id: `key_bench_${j}` });
        });
      const t0 = performance.now();
      webhooks = startWebhookWorkers({ connectionString, regions: REGIONS });
      const loaded = () => hooks.arrivals.filter((a) => a.path === '/load');
      await until('the load', () => loaded().length >= EVENTS, 300_000);
      const seconds = (performance.now() - t0) / 1000;
      const spans = loaded().map((a) => a.at - Date.parse(a.timestamp));
      results.push({
        name: `${EVENTS} waiting deliveries, one worker for the region (WEBHOOK_CONCURRENCY 16), receiver on loopback`,
        figures: {
          deliveries_per_s: Math.round(EVENTS / seconds),
          seconds: Math.round(seconds * 100) / 100,
          duplicates: EVENTS - new Set(loaded().map((a) => a.id)).size,
        },
        note: `from the event's commit to its arrival, max ${Math.max(...spans)} ms (they waited for the worker)`,
      });

      // 2. A cluster turning ready → its cluster.ready at the receiver.
      await endpoint(globex.id, `${hooks.base}/ready`, ['cluster.ready']);
      const ids: string[] = [];
      for (let i = 0; i < CLUSTERS; i++) {
        const region = REGIONS[i % REGIONS.length]!;
        const res = await fetch(`${srv.baseUrl}/v1/compute/clusters`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-region': region },
          body: JSON.stringify({ name: `hook-bench-${i}-${Date.now().toString(36)}`, region }),
        });
        if (res.status !== 202) throw new Error(`cluster create answered ${res.status}: ${await res.text()}`);
        ids.push(((await res.json()) as { cluster: { id: string } }).cluster.id);
      }
      const ready = () => hooks.arrivals.filter((a) => a.path === '/ready' && ids.includes(a.data.id as string));
      await until('every cluster.ready', () => ready().length >= CLUSTERS, 180_000);
      // The event is written in the transaction that makes the cluster ready: its time is that commit's.
      const latency = ready().map((a) => a.at - Date.parse(a.timestamp));
      results.push({
        name: `cluster ready → cluster.ready received, ${CLUSTERS} clusters over the app and its workers (ms)`,
        figures: summarize(latency, 'ms'),
      });

      // 3. 500 five times, then 200: one success, after the schedule's first five waits.
      hooks.script.set('/flaky', [500, 500, 500, 500, 500, 200]);
      await endpoint(acme.id, `${hooks.base}/flaky`, ['member.added']);
      await primary().$transaction((tx) => emitWebhook(tx, acme.id, 'member.added', { user_id: 'usr_bench' }));
      const flaky = () => hooks.arrivals.filter((a) => a.path === '/flaky');
      await until('the success', () => flaky().some((a) => a.status === 200), 60_000);
      await new Promise((r) => setTimeout(r, 2_000)); // nothing after the success
      const tries = flaky();
      const waits = tries.slice(1).map((a, i) => a.at - tries[i]!.at);
      const scheduled = RETRY_DELAYS_SECONDS.slice(0, 5).map((s) => s * 1000 * RETRY_SCALE);
      results.push({
        name: `a receiver answering 500 five times then 200 (schedule × ${RETRY_SCALE})`,
        figures: {
          attempts: tries.length,
          successes: tries.filter((a) => a.status === 200).length,
          webhook_ids: new Set(tries.map((a) => a.id)).size,
        },
        note: `waits ${waits.map((w) => `${w} ms`).join(', ')} for a schedule of ${scheduled.map((s) => `${Math.round(s)} ms`).join(', ')} ±10 %, plus the worker's wake-up`,
      });
    } finally {
      await webhooks?.stop();
      await workflows.stop({ graceful: true });
      await hooks.close();
      await srv.stop();
    }
    return results;
  },
};

export default bench;
