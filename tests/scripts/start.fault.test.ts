// `npm start`'s launcher, for real, on its own port and data folder: when the console dies
// (kill -9), the launcher stops every process it started and the databases, and exits; the
// next `npm start` on the same data folder comes up healthy and stops cleanly on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/ports';

const REGIONS = ['sfo1', 'lax1', 'ams1'];
const READY_MS = 240_000;
/** The launcher's stop: workers finish their step (none in hand here), then the databases. */
const STOPPED_MS = 60_000;

fs.mkdirSync('.data', { recursive: true });
const dataDir = fs.mkdtempSync(path.resolve('.data', 'launcher-test-'));
const launched: ChildProcess[] = [];
let output = '';

/** The launcher's environment as a shell would give it: nothing of the test run's own stack. */
function launcherEnv(port: number): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  for (const k of ['DATABASE_URL', 'DATABASE_REPLICA_URLS', 'DATABASE_MIGRATION_URL', 'AUTH_SECRET', 'NODE_ENV']) {
    delete inherited[k];
  }
  return { ...inherited, PORT: String(port), MERIDIAN_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
}

function launch(command: string, args: string[], port: number): ChildProcess {
  // Its own process group, as in a terminal: a signal to it reaches no one else.
  const child = spawn(command, args, { env: launcherEnv(port), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  launched.push(child);
  return child;
}

function exited(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`still running after ${timeoutMs / 1000} s\n${output}`)),
      timeoutMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

async function healthy(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the launcher exited (${child.exitCode}) before it was up\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`not healthy within ${READY_MS / 1000} s\n${output}`);
}

const readPid = (file: string) => Number(fs.readFileSync(file, 'utf8').split('\n')[0]);

/** Every process of the stack, by what it is: from the pid files the launcher and postgres write. */
function stackPids(): Record<string, { pid: number; marker: string }> {
  const pids: Record<string, { pid: number; marker: string }> = {
    launcher: { pid: readPid(path.join(dataDir, 'launcher.pid')), marker: 'scripts/start.ts' },
    next: { pid: readPid(path.join(dataDir, 'next.pid')), marker: 'http/main' },
  };
  for (const r of REGIONS) {
    pids[`worker ${r}`] = { pid: readPid(path.join(dataDir, `worker-${r}.pid`)), marker: 'worker/main' };
  }
  for (const name of ['primary', ...REGIONS.map((r) => `replica-${r}`)]) {
    pids[`postgres ${name}`] = { pid: readPid(path.join(dataDir, 'pg', name, 'postmaster.pid')), marker: 'postgres' };
  }
  return pids;
}

/**
 * process.kill(pid, 0) says whether the pid exists; a zombie (exited, not yet reaped by its
 * parent) exists but runs nothing, and a pid reused since by something else is not ours.
 */
function running(pid: number, marker: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    return false; // gone between the two looks
  }
}

function groupRunning(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function expectAllStopped(pids: Record<string, { pid: number; marker: string }>): void {
  const left = Object.entries(pids)
    .filter(([, p]) => running(p.pid, p.marker))
    .map(([name, p]) => `${name} (pid ${p.pid})`);
  expect(left, 'processes of the stack still running').toEqual([]);
  // The console and the workers were started detached: nothing of their groups may remain.
  for (const name of ['next', ...REGIONS.map((r) => `worker ${r}`)]) {
    expect(groupRunning(pids[name]!.pid), `process group of ${name}`).toBe(false);
  }
}

afterAll(async () => {
  // Whatever a failed run left: the launchers' groups, the stack's processes, then the folder.
  const kill = (pid: number, signal: NodeJS.Signals) => {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  };
  for (const c of launched) if (c.pid && c.exitCode === null) kill(-c.pid, 'SIGKILL');
  let left: ReturnType<typeof stackPids> = {};
  try {
    left = stackPids();
  } catch {
    /* pid files gone: a clean stop, or a start that never got that far */
  }
  for (const [name, p] of Object.entries(left)) {
    if (!running(p.pid, p.marker)) continue;
    if (name.startsWith('postgres'))
      kill(p.pid, 'SIGINT'); // its fast shutdown
    else kill(-p.pid, 'SIGKILL');
  }
  await new Promise((r) => setTimeout(r, 2_000));
  const pg = path.join(dataDir, 'pg');
  if (fs.existsSync(pg)) fs.rmSync(fs.realpathSync(pg), { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start (the launcher)', () => {
  it('stops the workers, the console and the databases when the console dies, and starts again on the same data', async () => {
    // 1. Up, then the console is killed from outside.
    const port = await freePort();
    const first = launch('npx', ['tsx', 'scripts/start.ts'], port);
    await healthy(port, first);
    const before = stackPids();
    for (const [name, p] of Object.entries(before)) expect(running(p.pid, p.marker), name).toBe(true);
    process.kill(before.next!.pid, 'SIGKILL');

    const code = await exited(first, STOPPED_MS);
    expect(code, 'a console that dies is a failed run').not.toBe(0);
    expect(output).toContain('the console exited (SIGKILL)');
    expectAllStopped(before);

    // 2. The same data folder again, through `npm start` itself: healthy, then SIGTERM.
    output = '';
    const port2 = await freePort();
    const second = launch('npm', ['start'], port2);
    await healthy(port2, second);
    const after = stackPids();
    expect(after.launcher!.pid).not.toBe(before.launcher!.pid);
    for (const [name, p] of Object.entries(after)) expect(running(p.pid, p.marker), name).toBe(true);
    process.kill(after.launcher!.pid, 'SIGTERM');

    expect(await exited(second, STOPPED_MS)).toBe(0);
    expect(output).toContain('stopped cleanly');
    expectAllStopped(after);
    // Nothing stale for a third start: the launcher removed the pid files of what it stopped.
    for (const f of ['launcher.pid', 'next.pid', ...REGIONS.map((r) => `worker-${r}.pid`)]) {
      expect(fs.existsSync(path.join(dataDir, f)), f).toBe(false);
    }
  }, 600_000);
});
