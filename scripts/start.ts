// `npm start`: brings the whole local console up. Databases (the embedded primary + one
// replica per region, unless DATABASE_URL is set), migrations, demo data, a production build
// when the sources changed, one workflow worker per region, then `next start`. Whatever ends it
// (Ctrl-C, SIGTERM, SIGHUP, the console exiting on its own, an error) stops every process it
// started, each with its whole process group, and the databases last.
// `npm start -- --gateways-per-region N` (or MERIDIAN_GATEWAYS_PER_REGION=N) runs the deployed
// shape instead: N gateway processes per region and one for the global address, each on its own
// port (dev/gateways.ts), and `--workers-per-region M` workers per region. In a terminal the
// processes' JSON logs are shown as readable lines (dev/pretty-logs.ts; MERIDIAN_LOG_FORMAT=json
// keeps them raw, MERIDIAN_LOG_VERBOSE=1 shows routine lines too).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { env } from '../server/env';
import { waitForHttp } from '../dev/ports';
import { prepareLocal, type LocalStack } from '../dev/local-stack';
import { appServerCommand } from '../dev/app-server';
import { ensureBuild } from '../dev/build';
import { planGateways, spawnGateway, spawnWorker, type GatewaySpec } from '../dev/gateways';
import { pipePretty } from '../dev/pretty-logs';

const log = (line: string) => console.log(`[meridian] ${line}`);

/** How long a child gets to stop on SIGTERM (a worker finishes its step in hand) before SIGKILL. */
const STOP_GRACE_MS = 20_000;
/** How long the launcher waits for the console to answer /api/health. */
const READY_TIMEOUT_MS = 60_000;

/** MERIDIAN_DATA_DIR, resolved once main() has read the environment. */
let dataDir = '';
const pidFile = (name: string) => path.join(dataDir, `${name}.pid`);

/** Children that may still be running, by the name of their pid file (`next`, `worker-sfo1`). */
const children = new Map<string, ChildProcess>();
let preparing: Promise<LocalStack> | undefined;
let shuttingDown: Promise<void> | undefined;

/**
 * Stops everything this launcher started and exits: the console and the workers (SIGTERM to
 * each one's process group, SIGKILL after STOP_GRACE_MS), then the databases. Idempotent: the
 * first reason wins. A stop requested while the databases are still coming up waits for them,
 * so that they are stopped too rather than left running.
 */
function shutdown(reason: string, exitCode: number): Promise<void> {
  shuttingDown ??= (async () => {
    let code = exitCode;
    if (!preparing) {
      removePidFile('launcher', process.pid); // nothing started yet
      process.exit(code);
    }
    log(`${reason}: stopping the console, the workflow workers and the databases…`);
    await Promise.all([...children].map(([name, child]) => stopGroup(name, child)));
    try {
      const stack = await preparing?.catch(() => undefined); // a failed start stopped its own
      await stack?.stop();
    } catch (err) {
      log(`could not stop the databases: ${(err as Error).message}`);
      code ||= 1;
    }
    removePidFile('launcher', process.pid);
    log(code === 0 ? 'stopped cleanly' : 'stopped');
    process.exit(code);
  })();
  return shuttingDown;
}

/** The child's whole process group (it was started detached, so its pid is the group id). */
async function stopGroup(name: string, child: ChildProcess): Promise<void> {
  const pgid = child.pid;
  if (!pgid) return;
  signalGroup(pgid, 'SIGTERM');
  if (!(await groupGone(pgid, STOP_GRACE_MS))) {
    log(`${name} did not stop within ${STOP_GRACE_MS / 1000} s: killing it`);
    signalGroup(pgid, 'SIGKILL');
    await groupGone(pgid, 5_000);
  }
  children.delete(name);
  removePidFile(name, pgid);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* nothing left in the group */
  }
}

async function groupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return true;
    }
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function writePidFile(name: string, pid: number): void {
  if (!dataDir) return;
  fs.writeFileSync(pidFile(name), String(pid));
}

/** Only our own entry: a later launcher may have written its own meanwhile. */
function removePidFile(name: string, pid: number): void {
  if (!dataDir) return;
  try {
    if (Number(fs.readFileSync(pidFile(name), 'utf8')) === pid) fs.rmSync(pidFile(name));
  } catch {
    /* already gone */
  }
}

/** The command line of a live process, or undefined (no such process, or no /proc). */
function commandLine(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}

/** A console or worker left running by a launcher that was killed (SIGKILL) would hold the port or the queue. */
async function stopStaleProcess(name: string, marker: string): Promise<void> {
  const file = pidFile(name);
  if (!fs.existsSync(file)) return;
  const pid = Number(fs.readFileSync(file, 'utf8'));
  fs.rmSync(file);
  if (!Number.isInteger(pid) || pid <= 0 || !commandLine(pid)?.includes(marker)) return;
  signalGroup(pid, 'SIGTERM');
  if (!(await groupGone(pid, STOP_GRACE_MS))) {
    signalGroup(pid, 'SIGKILL');
    await groupGone(pid, 5_000);
  }
  log(`stopped a process left running by an earlier run (pid ${pid}: ${name})`);
}

/** `--name N` or `--name=N` on the command line, else the variable, else the default. */
function countOption(name: string, variable: string, fallback: number): number {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  const raw = i < 0 ? process.env[variable] : args[i]!.includes('=') ? args[i]!.split('=')[1] : args[i + 1];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 16) throw new Error(`--${name} (${variable}) must be a whole number 0–16`);
  return n;
}

const prettyLogs = process.stdout.isTTY === true && process.env.MERIDIAN_LOG_FORMAT !== 'json';

/** A child's output: readable lines in a terminal, its raw JSON otherwise. */
function attachOutput(child: ChildProcess, name: string): void {
  if (!prettyLogs) return;
  const opts = { verbose: process.env.MERIDIAN_LOG_VERBOSE === '1', colorize: true };
  pipePretty(child.stdout!, process.stdout, name, opts);
  pipePretty(child.stderr!, process.stderr, name, opts);
}
const childStdio = () => (prettyLogs ? 'pipe' : 'inherit') as 'pipe' | 'inherit';

async function main(): Promise<void> {
  const started = Date.now();
  const e = env();
  const perRegion = countOption('gateways-per-region', 'MERIDIAN_GATEWAYS_PER_REGION', 0);
  const workersPerRegion = countOption('workers-per-region', 'MERIDIAN_WORKERS_PER_REGION', 1) || 1;
  const gateways: GatewaySpec[] | undefined =
    perRegion > 0 ? planGateways(e.MERIDIAN_REGIONS, perRegion, e.PORT, e.MERIDIAN_HOST) : undefined;
  dataDir = path.resolve(e.MERIDIAN_DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o711 });
  // Two launchers on one data folder would stop each other's console and share the databases.
  const other = fs.existsSync(pidFile('launcher')) ? Number(fs.readFileSync(pidFile('launcher'), 'utf8')) : 0;
  if (other > 0 && other !== process.pid && commandLine(other)?.includes('scripts/start.ts')) {
    throw new Error(`another npm start (pid ${other}) is running on ${dataDir}: stop it first`);
  }
  writePidFile('launcher', process.pid);

  preparing = prepareLocal({ log, dataDir, gateways });
  const stack = await preparing;
  if (shuttingDown) return; // stopped while the databases came up: shutdown() stops them
  log(`databases ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  await ensureBuild(log);
  if (shuttingDown) return;
  // The console and the workers get the app's connections only: never the owner's.
  const { DATABASE_MIGRATION_URL: _owner, ...inherited } = process.env;
  const childEnv: NodeJS.ProcessEnv = { ...inherited, ...stack.appEnv, NODE_ENV: 'production' };

  // Whatever an earlier run left (all-in-one or multi-process, any number of gateways and workers).
  for (const file of fs.readdirSync(dataDir)) {
    const m = /^(next|gateway-[a-z0-9-]+|worker-[a-z0-9-]+)\.pid$/.exec(file);
    if (m) await stopStaleProcess(m[1]!, m[1]!.startsWith('worker') ? 'worker/main' : 'http/main');
  }
  const startWorker = (region: string, name: string) => {
    if (shuttingDown) return;
    // node itself runs the worker (tsx as a loader), so the PID we hold is the worker's; its own
    // process group (detached): Ctrl-C reaches only us, and we stop the group.
    const w = spawnWorker(region, name.replace(/^worker-/, ''), childEnv, { detached: true, stdio: childStdio() });
    attachOutput(w, name);
    children.set(name, w);
    writePidFile(name, w.pid!);
    w.on('exit', (code, signal) => {
      if (shuttingDown) return;
      log(`the ${name} workflow worker exited (${signal ?? code}); restarting it — its runs carry on`);
      setTimeout(() => startWorker(region, name), 1_000);
    });
  };
  for (const region of e.MERIDIAN_REGIONS) {
    for (let i = 1; i <= workersPerRegion; i++) {
      // One worker per region keeps the pid file name of earlier runs (`worker-sfo1`).
      const name = workersPerRegion === 1 ? `worker-${region}` : `worker-${region}-${i}`;
      startWorker(region, name);
    }
  }
  if (shuttingDown) return; // (checked right before each spawn: shutdown() stops what exists by then)
  log(`workflow workers started for ${e.MERIDIAN_REGIONS.join(', ')} (${workersPerRegion} per region)`);

  // A gateway exiting on its own (a crash, a kill, a port taken) ends the whole stack: see the
  // README (Quick start) for why it is not restarted.
  const watchGateway = (name: string, child: ChildProcess) => {
    children.set(name, child);
    writePidFile(name, child.pid!);
    child.on('exit', (code, signal) => {
      if (!shuttingDown)
        void shutdown(`${name === 'next' ? 'the console' : name} exited (${signal ?? code})`, code || 1);
    });
  };
  if (!gateways) {
    // The console: Next's handler behind our HTTP server (server/http/main.ts).
    const app = appServerCommand(e.PORT, e.MERIDIAN_BIND);
    const next: ChildProcess = spawn(process.execPath, app.args, {
      env: { ...childEnv, ...app.env },
      stdio: ['ignore', childStdio(), childStdio()],
      detached: true,
    });
    attachOutput(next, 'console');
    watchGateway('next', next);
    await waitForHttp(`http://127.0.0.1:${e.PORT}/api/health`, READY_TIMEOUT_MS);
  } else {
    // The deployed shape: every gateway its own process and port. One at a time: several Next
    // processes starting at once on a small machine slow each other past the readiness timeout.
    const globalUrl = gateways.find((g) => g.region === 'global')!.url;
    for (const g of gateways) {
      if (shuttingDown) return;
      const child = spawnGateway(
        g,
        { ...childEnv, MERIDIAN_GLOBAL_URL: globalUrl, MERIDIAN_BIND: e.MERIDIAN_BIND },
        { detached: true, stdio: childStdio() },
      );
      attachOutput(child, g.name);
      watchGateway(`gateway-${g.name}`, child);
      await waitForHttp(`http://127.0.0.1:${g.port}/api/readyz`, READY_TIMEOUT_MS);
    }
  }
  if (shuttingDown) return;
  const c = stack.credentials;
  console.log('');
  log(`Meridian is up (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  log(`  global address  ${c.global_url}`);
  if (c.gateways) {
    for (const g of c.gateways) log(`  gateway ${g.name.padEnd(9)} ${g.url}   (readiness ${g.url}/api/readyz)`);
  } else {
    for (const [code, url] of Object.entries(c.regions)) log(`  region ${code.padEnd(8)} ${url}`);
  }
  log('  sign in with:');
  for (const u of c.users) log(`    ${u.email.padEnd(20)} ${u.password}   (${u.role}${u.org ? ` of ${u.org}` : ''})`);
  log('  API keys:');
  for (const k of c.api_keys) log(`    ${k.org.padEnd(7)} ${k.region.padEnd(5)} ${k.key}`);
  for (const k of c.global_api_keys) log(`    ${k.org.padEnd(7)} ${'all'.padEnd(5)} ${k.key}   (organization-wide)`);
  log(`  credentials written to ${path.relative(process.cwd(), stack.credentialsFile)} (mode 600)`);
  log('Press Ctrl-C to stop.');
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal, 0));
process.on('uncaughtException', (err) => {
  console.error(`[meridian] unexpected error: ${err.stack ?? String(err)}`);
  void shutdown('an unexpected error', 1);
});
process.on('unhandledRejection', (err) => {
  console.error(`[meridian] unexpected error: ${(err as Error)?.stack ?? String(err)}`);
  void shutdown('an unexpected error', 1);
});
// Last resort if something calls process.exit() around shutdown(): no child outlives us.
process.on('exit', () => {
  for (const child of children.values()) if (child.pid) signalGroup(child.pid, 'SIGKILL');
});

main().catch((err: unknown) => {
  if (shuttingDown) return;
  console.error(`[meridian] failed to start: ${(err as Error).stack ?? String(err)}`);
  if (preparing && fs.existsSync(path.join(dataDir, 'pg', 'logs'))) {
    console.error(`[meridian] database logs are under ${path.join(dataDir, 'pg', 'logs')}/`);
  }
  void shutdown('start failed', 1);
});
