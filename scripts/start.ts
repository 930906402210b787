// `npm start`: brings the whole local console up. Databases (the embedded primary + one
// replica per region, unless DATABASE_URL is set), migrations, demo data, a production build
// when the sources changed, one workflow worker per region, then `next start`. Ctrl-C stops
// everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { env } from '../server/env';
import { waitForHttp } from '../dev/ports';
import { prepareLocal, type LocalStack } from '../dev/local-stack';
import { ensureBuild } from '../dev/build';

const log = (line: string) => console.log(`[meridian] ${line}`);

async function main(): Promise<void> {
  const started = Date.now();
  const e = env();
  const stack: LocalStack = await prepareLocal({ log });
  log(`databases ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  await ensureBuild(log);
  await stopStaleServer(path.join(stack.dataDir, 'next.pid'), 'next');
  const workers = new Map<string, ChildProcess>();
  let stopping = false;
  const startWorker = (region: string) => {
    const pidFile = path.join(stack.dataDir, `worker-${region}.pid`);
    // node itself runs the worker (tsx as a loader), so the PID we hold is the worker's.
    const w = spawn(process.execPath, ['--import', 'tsx', path.resolve('server/workflows/main.ts')], {
      env: { ...process.env, ...stack.appEnv, WORKFLOW_REGIONS: region, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
    });
    fs.writeFileSync(pidFile, String(w.pid));
    workers.set(region, w);
    w.on('exit', (code, signal) => {
      if (stopping) return;
      log(`the ${region} workflow worker exited (${signal ?? code}); restarting it — its runs carry on`);
      setTimeout(() => !stopping && startWorker(region), 1_000);
    });
  };
  for (const region of e.MERIDIAN_REGIONS) {
    await stopStaleServer(path.join(stack.dataDir, `worker-${region}.pid`), 'workflows/main');
    startWorker(region);
  }
  log(`workflow workers started for ${[...workers.keys()].join(', ')}`);

  const next: ChildProcess = spawn(
    process.execPath,
    [path.resolve('node_modules/next/dist/bin/next'), 'start', '-p', String(e.PORT), '-H', e.MERIDIAN_BIND],
    {
      env: { ...process.env, ...stack.appEnv, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true, // Ctrl-C reaches only us; we stop the server, then the databases
    },
  );
  fs.writeFileSync(path.join(stack.dataDir, 'next.pid'), String(next.pid));

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping the console and the databases…`);
    const children = [next, ...workers.values()].filter((c) => c.exitCode === null && c.signalCode === null);
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => c.once('exit', r))));
    await stack.stop();
    log('stopped cleanly');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  next.on('exit', (code) => {
    if (!stopping) {
      log(`the console exited (${code}); stopping the databases`);
      void stack.stop().then(() => process.exit(code ?? 1));
    }
  });

  await waitForHttp(`http://127.0.0.1:${e.PORT}/api/health`, 60_000);
  const c = stack.credentials;
  console.log('');
  log(`Meridian is up (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  log(`  global address  ${c.global_url}`);
  for (const [code, url] of Object.entries(c.regions)) log(`  region ${code.padEnd(8)} ${url}`);
  log('  sign in with:');
  for (const u of c.users) log(`    ${u.email.padEnd(20)} ${u.password}   (${u.role}${u.org ? ` of ${u.org}` : ''})`);
  log('  API keys:');
  for (const k of c.api_keys) log(`    ${k.org.padEnd(7)} ${k.region.padEnd(5)} ${k.key}`);
  log(`  credentials written to ${path.relative(process.cwd(), stack.credentialsFile)} (mode 600)`);
  log('Press Ctrl-C to stop.');
}

/** A console or worker left running by a launcher that was killed (SIGKILL) would hold the port or the queue. */
async function stopStaleServer(pidFile: string, marker: string): Promise<void> {
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8'));
  fs.rmSync(pidFile);
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmd.includes(marker)) return;
    process.kill(pid, 'SIGTERM');
  } catch {
    return; // not running
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  log(`stopped a process left running by an earlier run (pid ${pid}: ${path.basename(pidFile, '.pid')})`);
}

main().catch((err: unknown) => {
  console.error(`[meridian] failed to start: ${(err as Error).stack ?? String(err)}`);
  if (fs.existsSync('.data')) console.error('[meridian] database logs are under .data/pg/logs/');
  process.exit(1);
});
