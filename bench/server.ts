// A throw-away stack for benchmarks: embedded topology, demo data, the production build and
// `next start` on a free port. Stopped and deleted by `stop()`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appServerCommand } from '../dev/app-server';
import { ensureBuild } from '../dev/build';
import { resetEnvCache } from '../server/env';
import { prepareLocal, type LocalStack } from '../dev/local-stack';
import { freePort, waitForHttp } from '../dev/ports';

export interface BenchServer {
  baseUrl: string;
  stack: LocalStack;
  /** The app server's process ID (for its memory use). */
  pid: number;
  stop(): Promise<void>;
}

export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-bench-'));
  fs.chmodSync(dir, 0o711);
  const port = await freePort();
  // Its own embedded databases, whatever this process was pointed at before.
  for (const v of ['DATABASE_URL', 'DATABASE_REPLICA_URLS', 'DATABASE_MIGRATION_URL']) delete process.env[v];
  resetEnvCache();
  // Durable like the demo: with asynchronous commit the primary ships WAL only every
  // wal_writer_delay, and replicas would look 200 ms behind.
  const stack = await prepareLocal({ dataDir: dir, port, durable: true });
  await ensureBuild(() => {});
  const app = appServerCommand(port);
  const server = spawn(process.execPath, app.args, {
    env: { ...process.env, ...stack.appEnv, ...app.env, LOG_LEVEL: 'silent', ...env },
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
      await stack.topology?.destroy();
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
