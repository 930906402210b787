// `npm run bench moves-size`: a workspace of ~1,000,000 rows moved by the real workflow on worker
// processes of their own, each one's peak RSS sampled from /proc (docs/performance.md#moves-at-size).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { rest, sessionCookie } from '../dev/testing/app';
import { seedWorkspaceAtSize } from '../dev/testing/workspace-rows';
import { prepareLocal } from '../dev/local-stack';
import { freePort } from '../dev/ports';
import { registerWithDirectory } from '../server/cell/registration';
import { disconnectAll, primary } from '../server/db/client';
import { resetEnvCache } from '../server/env';
import { MAX_NOTIFICATIONS_PER_ORG } from '../server/notifications/retention';
import { trustPeerHeader } from '../server/net/client-address';
import { gatewayRuntime } from '../server/runtime/gateway';
import { packageStandalone } from '../scripts/package-standalone';
import { workerHeapLimitMb } from '../server/worker/heap';
import type { Benchmark, BenchResult } from './lib';

const n = (v: string | undefined, d: number) => (v ? Number(v) : d);
// 10% clusters, notifications up to the organization's cap (more would be the workers' to
// prune), audit events the rest (BENCH_MOVE_ROWS, default 1,000,000).
const ROWS = n(process.env.BENCH_MOVE_ROWS, 1_000_000);
/** Moves there and back: each region's worker exports once and verifies once. */
const ROUTE = (process.env.BENCH_MOVE_ROUTE ?? 'lax1,sfo1').split(',');

/** The directory the cells call (offer, accept), on loopback: the real internal route handler. */
async function directoryServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const { POST: internal } = (await import('../app/internal/v1/[...path]/route')) as {
    POST: (req: Request) => Promise<Response>;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      headers.set('x-meridian-peer', req.socket.remoteAddress ?? '');
      void internal(
        new Request(`http://${req.headers.host}${req.url}`, {
          method: req.method,
          headers,
          body: body.length && req.method !== 'GET' ? body : undefined,
        }),
      ).then(async (r) => {
        res.writeHead(r.status, Object.fromEntries(r.headers));
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(() => ok())) };
}

/** VmRSS and VmHWM (peak) of a process, in MB, from /proc/<pid>/status. */
function memoryOf(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

interface Worker {
  region: string;
  child: ChildProcess;
  log: string;
  /** Highest VmRSS sampled since the last reset (every 100 ms). */
  sampled: number;
}

const ARTIFACT = process.env.BENCH_WORKER === 'artifact';

function spawnWorker(region: string, dir: string): Worker {
  const log = path.join(dir, `worker-${region}.log`);
  const out = fs.openSync(log, 'a');
  // As the launcher starts one (dev/deployment-processes.ts): node itself, not the tsx launcher, so
  // the PID sampled is the worker's, its heap bounded the same way. BENCH_WORKER_NODE_ARGS gives
  // other V8 flags instead (say --max-old-space-size=4096, to see it unbounded).
  const bound = `--max-old-space-size=${workerHeapLimitMb(Number(process.env.MOVE_CHUNK_BYTES ?? 1024 * 1024))}`;
  const flags = (process.env.BENCH_WORKER_NODE_ARGS ?? bound).split(' ').filter(Boolean);
  // BENCH_WORKER=artifact: the deployable bundle (`npm run package`'s worker.mjs, no tsx loader).
  const entry = ARTIFACT ? [path.resolve('.next/standalone/worker.mjs')] : ['--import', 'tsx', 'server/worker/main.ts'];
  const child = spawn(process.execPath, [...flags, ...entry], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      WORKFLOW_REGIONS: region,
      MERIDIAN_PROCESS_NAME: `worker-${region}`,
      WORKFLOW_STEP_MS: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', out, out],
  });
  return { region, child, log, sampled: 0 };
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const seconds = (a: Date | null, b: Date | null) => (a && b ? (b.getTime() - a.getTime()) / 1000 : NaN);

const bench: Benchmark = {
  name: 'moves-size',
  async run() {
    if (ARTIFACT) await packageStandalone((line) => console.log(`  ${line}`));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-bench-'));
    fs.chmodSync(dir, 0o711);
    for (const v of ['DATABASE_URL', 'DATABASE_REPLICA_URLS', 'DATABASE_MIGRATION_URL']) delete process.env[v];
    resetEnvCache();
    const stack = await prepareLocal({ dataDir: dir, port: await freePort(), durable: true });
    const directory = await directoryServer();
    process.env.MERIDIAN_DIRECTORY_URL = directory.url;
    resetEnvCache();
    trustPeerHeader();
    const workers: Worker[] = [];
    const results: BenchResult[] = [];
    const sampler = setInterval(() => {
      for (const w of workers) w.sampled = Math.max(w.sampled, memoryOf(w.child.pid!)?.rss ?? 0);
    }, 100);
    try {
      const acme = await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } });
      const t0 = performance.now();
      const clusters = Math.round(ROWS * 0.1);
      const notifications = Math.min(MAX_NOTIFICATIONS_PER_ORG - 50, Math.round(ROWS * 0.4));
      const seeded = await seedWorkspaceAtSize(primary(), acme.id, {
        clusters,
        audits: ROWS - clusters - notifications,
        notifications,
      });
      const seedS = (performance.now() - t0) / 1000;
      console.log(`  seeded ${seeded.toLocaleString('en')} rows in ${seedS.toFixed(1)} s`);
      for (const region of new Set(['sfo1', ...ROUTE])) {
        await primary().organizationRegion.upsert({
          where: { orgId_region: { orgId: acme.id, region } },
          create: { orgId: acme.id, region },
          update: {},
        });
      }
      await registerWithDirectory();
      for (const region of new Set(['sfo1', ...ROUTE])) workers.push(spawnWorker(region, dir));
      // The demo's runs in flight finish first: the drain would otherwise be part of the window.
      for (
        let i = 0;
        await primary().workflowRun.count({ where: { orgId: acme.id, status: { in: ['queued', 'running'] } } });
        i++
      ) {
        if (i > 1200) throw new Error("acme's runs never finished");
        await new Promise((r) => setTimeout(r, 100));
      }
      const idle = Object.fromEntries(workers.map((w) => [w.region, memoryOf(w.child.pid!)!.rss]));
      const ops = await primary().user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } });
      const cookie = await sessionCookie(ops.id, null);

      for (const [i, to] of ROUTE.entries()) {
        for (const w of workers) w.sampled = 0;
        const started = performance.now();
        const res = await rest<{ id: string }>('POST', '/v1/atlas/moves', {
          headers: { cookie },
          body: { slug: 'acme', to_region: to },
        });
        if (res.status !== 202) throw new Error(`the move answered ${res.status}: ${JSON.stringify(res.body)}`);
        let m;
        for (;;) {
          m = await primary().workspaceMove.findUniqueOrThrow({ where: { id: res.body.id } });
          if (['completed', 'failed', 'cancelled'].includes(m.status)) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        const totalS = (performance.now() - started) / 1000;
        const steps = await primary().workflowStep.findMany({ where: { runId: m.runId! } });
        if (m.status !== 'completed') {
          throw new Error(
            `the move to ${to} ended ${m.status}: ${m.error} ` +
              JSON.stringify(steps.map((s) => [s.name, s.status, s.attempts, s.error])),
          );
        }
        const step = (name: string) => steps.find((s) => s.name === name)!;
        const tables = m.tables as { name: string; count: number; match: boolean }[];
        const rows = tables.reduce((s, t) => s + t.count, 0);
        if (!tables.every((t) => t.match)) throw new Error(`the move to ${to} did not verify every table`);
        const exportS = seconds(step('export').startedAt, step('export').finishedAt);
        const verifyS = seconds(step('verify').startedAt, step('verify').finishedAt);
        const from = i === 0 ? 'sfo1' : ROUTE[i - 1]!;
        const src = workers.find((w) => w.region === from)!;
        const dst = workers.find((w) => w.region === to)!;
        results.push({
          name: `move ${i + 1}: acme, ${rows.toLocaleString('en')} rows, ${from} → ${to} (worker processes, RSS from /proc)`,
          figures: {
            rows,
            export_s: round(exportS, 2),
            export_rows_per_s: Math.round(rows / exportS),
            verify_s: round(verifyS, 2),
            verify_rows_per_s: Math.round(rows / verifyS),
            read_only_s: round(seconds(m.readOnlyAt, m.writableAt), 2),
            move_total_s: round(totalS, 2),
            bundle_chunks: m.bundleChunks ?? 0,
            bundle_mb: round((Number(m.bundleBytes ?? 0) || 0) / 2 ** 20),
            source_worker_rss_peak_mb: round(src.sampled),
            target_worker_rss_peak_mb: round(dst.sampled),
          },
          note:
            `export attempts ${step('export').attempts}, verify attempts ${step('verify').attempts}; ` +
            `idle worker RSS before the moves: ${Object.entries(idle)
              .map(([r, mb]) => `${r} ${round(mb)} MB`)
              .join(', ')}; seed ${round(seedS)} s`,
        });
      }
      const hwm = workers.map((w) => `${w.region} ${round(memoryOf(w.child.pid!)?.hwm ?? NaN)} MB`).join(', ');
      const kind = ARTIFACT ? 'the artifact (worker.mjs)' : 'under tsx (server/worker/main.ts)';
      results.push({ name: `worker processes, ${kind}: VmHWM (peak RSS over their life)`, figures: {}, note: hwm });
    } catch (e) {
      for (const w of workers) {
        const tail = fs.existsSync(w.log) ? fs.readFileSync(w.log, 'utf8').split('\n').slice(-15).join('\n') : '';
        console.error(`  worker ${w.region} log tail:\n${tail}`);
      }
      throw e;
    } finally {
      clearInterval(sampler);
      for (const w of workers) {
        w.child.kill('SIGTERM');
        if (w.child.exitCode === null) await new Promise((r) => w.child.once('exit', r));
      }
      await directory.close();
      await gatewayRuntime().stop(); // what the REST door started in this process
      await disconnectAll();
      await stack.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return results;
  },
};

export default bench;
