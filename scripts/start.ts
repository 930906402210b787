// `npm start`: the whole local console, and whatever ends it stops everything it started
// (docs/operations.md#the-local-demo-npm-start).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { env } from '../server/env';
import { waitForHttp } from '../dev/ports';
import { prepareLocal, type LocalStack } from '../dev/local-stack';
import { appServerCommand } from '../dev/app-server';
import { ensureBuild } from '../dev/build';
import { planGateways, spawnGateway, spawnWorker, type GatewaySpec } from '../dev/deployment-processes';
import { printBanner } from './launcher/banner';
import { attachOutput, childStdio, countOption } from './launcher/options';
import { commandLine, PidFiles } from './launcher/pid-files';
import { signalGroup, stopGroup, STOP_GRACE_MS } from './launcher/process-groups';
import { describe as describeProfile, parseProfile } from '../dev/wan/profile';
import { serveControl, Wan } from '../dev/wan/wan';
import { haSites, replicaPrimaryPort, siteEnv } from '../dev/wan/topology';
import { describeMissing, haPrerequisites } from '../dev/ha/prerequisites';
import type { HaTopology } from '../dev/ha/topology';

const log = (line: string) => console.log(`[meridian] ${line}`);

/** How long the launcher waits for the console to answer /api/health. */
const READY_TIMEOUT_MS = 60_000;

/** MERIDIAN_DATA_DIR, resolved once main() has read the environment. */
let dataDir = '';
/** The databases' folder under it: `pg` (embedded) or `ha` (--ha). */
let databasesDir = 'pg';
let pids: PidFiles | undefined;

/** Children that may still be running, by the name of their pid file (`next`, `worker-sfo1`). */
const children = new Map<string, ChildProcess>();
/** Stops a `next build` still under way. */
const building = new AbortController();
let preparing: Promise<LocalStack> | undefined;
/** `--wan`: the relays (in this process) and their control server for `npm run wan`. */
let wan: { wan: Wan; control: { port: number; close: () => Promise<void> }; file: string } | undefined;
let shuttingDown: Promise<void> | undefined;

/**
 * Stops everything this launcher started and exits: the build, the console and the workers
 * (SIGTERM to each one's process group, SIGKILL after STOP_GRACE_MS), then the databases.
 * Idempotent: the first reason wins. A stop requested while the databases are still coming up
 * waits for them, so that they are stopped too rather than left running.
 */
function shutdown(reason: string, exitCode: number): Promise<void> {
  shuttingDown ??= (async () => {
    let code = exitCode;
    if (!preparing) {
      pids?.remove('launcher', process.pid); // nothing started yet
      if (wan) fs.rmSync(wan.file, { force: true });
      process.exit(code);
    }
    log(`${reason}: stopping the console, the workflow workers and the databases…`);
    building.abort();
    await Promise.all([...children].map(([name, child]) => stopChild(name, child)));
    try {
      const stack = await preparing?.catch(() => undefined); // a failed start stopped its own
      await stack?.stop();
    } catch (err) {
      log(`could not stop the databases: ${(err as Error).message}`);
      code ||= 1;
    }
    // After the databases: a replica streaming through a relay would only log a lost connection.
    if (wan) {
      await Promise.all([wan.wan.close(), wan.control.close()]).catch(() => {});
      fs.rmSync(wan.file, { force: true });
    }
    pids?.remove('launcher', process.pid);
    log(code === 0 ? 'stopped cleanly' : 'stopped');
    process.exit(code);
  })();
  return shuttingDown;
}

/** The child's whole process group (it was started detached, so its pid is the group id). */
async function stopChild(name: string, child: ChildProcess): Promise<void> {
  const pgid = child.pid;
  if (!pgid) return;
  await stopGroup(pgid, () => log(`${name} did not stop within ${STOP_GRACE_MS / 1000} s: killing it`));
  children.delete(name);
  pids?.remove(name, pgid);
}

async function main(): Promise<void> {
  const started = Date.now();
  const e = env();
  // A WAN needs the regions apart: one gateway process per region (plus the global one) unless told.
  const wanOn = process.argv.slice(2).includes('--wan') || !!process.env.MERIDIAN_WAN;
  const haOn = process.argv.slice(2).includes('--ha') || !!process.env.MERIDIAN_HA;
  if (haOn) databasesDir = 'ha';
  const refused = haOn ? haRefusal() : undefined;
  if (refused) {
    console.error(`[meridian] ${refused}`);
    process.exitCode = 1;
    return;
  }
  const profile = wanOn ? parseProfile(process.env.MERIDIAN_WAN, e.MERIDIAN_REGIONS) : undefined;
  const perRegionGiven = countOption('gateways-per-region', 'MERIDIAN_GATEWAYS_PER_REGION', 0);
  const perRegion = perRegionGiven || (profile ? 1 : 0);
  const workersPerRegion = countOption('workers-per-region', 'MERIDIAN_WORKERS_PER_REGION', 1) || 1;
  const gateways: GatewaySpec[] | undefined =
    perRegion > 0 ? planGateways(e.MERIDIAN_REGIONS, perRegion, e.PORT, e.MERIDIAN_HOST) : undefined;
  dataDir = path.resolve(e.MERIDIAN_DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o711 });
  const pidFiles = (pids = new PidFiles(dataDir));
  // Two launchers on one data folder would stop each other's console and share the databases.
  const other = pidFiles.read('launcher');
  if (other > 0 && other !== process.pid && commandLine(other)?.includes('scripts/start.ts')) {
    throw new Error(`another npm start (pid ${other}) is running on ${dataDir}: stop it first`);
  }
  pidFiles.write('launcher', process.pid);

  if (profile) {
    // Before the databases: the replicas stream WAL through their links' relays.
    const w = new Wan(profile);
    const file = path.join(dataDir, 'wan.json');
    wan = { wan: w, control: await serveControl(w), file };
    fs.writeFileSync(file, JSON.stringify({ port: wan.control.port, pid: process.pid }) + '\n');
    log(`WAN on: ${describeProfile(profile)}`);
  }

  // The build needs no database: it runs while they come up.
  preparing = prepareLocal({
    log,
    dataDir,
    gateways,
    primaryPortFor: wan ? replicaPrimaryPort(wan.wan) : undefined,
    haSites: wan ? haSites(wan.wan) : undefined,
    ha: haOn,
  });
  const databases = preparing.then((s) => {
    if (!shuttingDown) log(`databases ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return s;
  });
  const [stack] = await Promise.all([databases, ensureBuild(log, { signal: building.signal })]);
  if (shuttingDown) return; // stopped meanwhile: shutdown() stops the databases
  // The console and the workers get the app's connections only: never the owner's.
  const { DATABASE_MIGRATION_URL: _owner, ...inherited } = process.env;
  const childEnv: NodeJS.ProcessEnv = {
    ...inherited,
    ...stack.appEnv,
    NODE_ENV: 'production',
    // The demo's webhook receivers run on this machine (docs/flows/webhooks.md#no-ssrf).
    WEBHOOK_ALLOW_LOOPBACK: inherited.WEBHOOK_ALLOW_LOOPBACK ?? 'on',
  };
  // Over the WAN, each process's database URLs depend on its site (the global gateway's is the mothership).
  const siteEnvs = new Map<string, NodeJS.ProcessEnv>();
  for (const site of e.MERIDIAN_REGIONS) {
    siteEnvs.set(
      site,
      wan
        ? {
            ...childEnv,
            ...(await siteEnv(wan.wan, site, {
              ...stack.credentials.databases,
              haApiUrls: childEnv.DATABASE_HA_API_URLS,
            })),
          }
        : childEnv,
    );
  }
  const envAt = (region: string) =>
    siteEnvs.get(region === 'global' ? (wan?.wan.profile.mothership ?? region) : region) ?? childEnv;

  // Whatever an earlier run left (all-in-one or multi-process, any number of gateways and workers).
  for (const name of pidFiles.leftovers()) {
    await pidFiles.stopStale(name, name.startsWith('worker') ? 'worker/main' : 'http/main', log);
  }
  const startWorker = (region: string, name: string) => {
    if (shuttingDown) return;
    // node itself runs the worker (tsx as a loader), so the PID we hold is the worker's; its own
    // process group (detached): Ctrl-C reaches only us, and we stop the group.
    const w = spawnWorker(region, name.replace(/^worker-/, ''), envAt(region), { detached: true, stdio: childStdio() });
    attachOutput(w, name);
    children.set(name, w);
    pidFiles.write(name, w.pid!);
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
  // docs/operations.md (The local demo) for why it is not restarted.
  const watchGateway = (name: string, child: ChildProcess) => {
    children.set(name, child);
    pidFiles.write(name, child.pid!);
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
        { ...envAt(g.region), MERIDIAN_GLOBAL_URL: globalUrl, MERIDIAN_BIND: e.MERIDIAN_BIND },
        { detached: true, stdio: childStdio() },
      );
      attachOutput(child, g.name);
      watchGateway(`gateway-${g.name}`, child);
      await waitForHttp(`http://127.0.0.1:${g.port}/api/readyz`, READY_TIMEOUT_MS);
    }
  }
  if (shuttingDown) return;
  if (stack.ha) log(await haLine(stack.ha));
  printBanner(log, stack, started, wan && { profile: wan.wan.profile, defaultGateways: perRegionGiven === 0 });
}

/** Why `--ha` cannot run here, if it cannot: what is missing (and the apt command). */
function haRefusal(): string | undefined {
  const pre = haPrerequisites();
  return pre.ok ? undefined : `npm start -- --ha: ${describeMissing(pre)}`;
}

/** `--ha`: the nodes and who leads, as nodes.json has them now. */
async function haLine(ha: HaTopology): Promise<string> {
  const f = await ha.writeNodesFile();
  const nodes = f.nodes.map((n) => `${n.name} ${n.role ?? 'down'} :${n.pgPort}`).join(', ');
  const file = path.relative(process.cwd(), path.join(dataDir, databasesDir, 'nodes.json'));
  return `HA databases: leader ${f.leader ?? 'none'}; ${nodes} (${file})`;
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
  const logs = path.join(dataDir, databasesDir, 'logs');
  if (preparing && fs.existsSync(logs)) console.error(`[meridian] database logs are under ${logs}/`);
  void shutdown('start failed', 1);
});
