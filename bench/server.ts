// A throw-away stack for benchmarks: embedded (or HA) topology, demo data, the production build
// (plus the baseline route) and `next start` on a free port, optionally at one site of a WAN.
// Stopped and deleted by `stop()`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { appServerCommand } from '../dev/app-server';
import { ensureBuild } from '../dev/build';
import { resetEnvCache } from '../server/env';
import { prepareLocal, type LocalStack } from '../dev/local-stack';
import { freePort, waitForHttp } from '../dev/ports';
import { describe, parseProfile } from '../dev/wan/profile';
import { haSites, replicaPrimaryPort, siteEnv } from '../dev/wan/topology';
import { Wan } from '../dev/wan/wan';
import { env as appEnv } from '../server/env';

export interface BenchServer {
  baseUrl: string;
  stack: LocalStack;
  /** The app server's process ID (for its memory use). */
  pid: number;
  stop(): Promise<void>;
}

export async function startBenchServer(
  env: Record<string, string> = {},
  /** `wanSite`: the app runs at that site of the WAN (MERIDIAN_WAN or the default profile): its
   * database connections, and the replicas' streams, cross the links. `baseline`: the build with
   * the hot-path benchmark's baseline route, a build of its own; every other user shares the
   * production build the tests and `npm start` use, so none rebuilds after another. */
  opts: { ha?: boolean; wanSite?: string; baseline?: boolean } = {},
): Promise<BenchServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-bench-'));
  fs.chmodSync(dir, 0o711);
  const port = await freePort();
  // Its own embedded databases, whatever this process was pointed at before.
  for (const v of ['DATABASE_URL', 'DATABASE_REPLICA_URLS', 'DATABASE_MIGRATION_URL']) delete process.env[v];
  resetEnvCache();
  // Durable like the demo: with asynchronous commit the primary ships WAL only every
  // wal_writer_delay, and replicas would look 200 ms behind.
  const wan = opts.wanSite ? new Wan(parseProfile(process.env.MERIDIAN_WAN, appEnv().MERIDIAN_REGIONS)) : undefined;
  if (wan) console.log(`  WAN: ${describe(wan.profile)}; the app at ${opts.wanSite}`);
  const stack = await prepareLocal({
    dataDir: dir,
    port,
    durable: true,
    ha: opts.ha,
    primaryPortFor: wan && replicaPrimaryPort(wan),
    haSites: wan && haSites(wan),
  });
  const sited = wan
    ? await siteEnv(wan, opts.wanSite!, {
        ...stack.credentials.databases,
        haApiUrls: stack.appEnv.DATABASE_HA_API_URLS,
      })
    : {};
  await ensureBuild(() => {}, { bench: opts.baseline }); // baseline: with bench/baseline.ts
  const app = appServerCommand(port);
  // BENCH_CPU_PROFILE=<dir>: the app server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
    : [];
  const server = spawn(process.execPath, [...profile, ...app.args], {
    env: { ...process.env, ...stack.appEnv, ...sited, ...app.env, LOG_LEVEL: 'silent', ...env },
    stdio: 'ignore',
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/api/livez`, 60_000);
  return {
    baseUrl,
    stack,
    pid: server.pid!,
    stop: async () => {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      await stack.stop();
      await wan?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `requests` GETs at `concurrency`, each with `headers`; latencies in ms. */
export async function load(
  url: string,
  requests: number,
  concurrency: number,
  headers: Record<string, string> = {},
): Promise<{ latencies: number[]; seconds: number; headers: Headers[] }> {
  const latencies: number[] = [];
  const seen: Headers[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        const t = performance.now();
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${url} answered ${res.status}`);
        latencies.push(performance.now() - t);
        if (seen.length < 50) seen.push(res.headers);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - t0) / 1000, headers: seen };
}

/** Keep-alive connections for `send` (one per request in flight, reused). */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One HTTP request through node:http on keep-alive connections: the load generator shares the
 * machine's two cores with the gateway and PostgreSQL, and `fetch` (undici's WHATWG layer) costs
 * it about three times the CPU per request (bench/arc.bench.ts reports both).
 */
export function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const req = http.request(
      url,
      {
        agent,
        method: init.method ?? 'GET',
        headers: { ...init.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
