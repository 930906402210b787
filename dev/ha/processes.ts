// The HA topology's long-lived processes (etcd, the Patroni agents): started detached as the
// database OS user with their output in a log file, found again through pid files, killed whole.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { RunAs } from '../embedded-pg/os-user';

export interface Daemon {
  program: string;
  args: string[];
  cwd: string;
  logFile: string;
  pidFile: string;
  runAs: RunAs | undefined;
  /** Variables added to the minimal environment. */
  env?: Record<string, string>;
}

/** Starts `d` in its own session (a Ctrl-C in the launcher's terminal must not reach it). */
export function startDaemon(d: Daemon): number {
  const out = fs.openSync(d.logFile, 'a', 0o600);
  try {
    const child = spawn(d.program, d.args, {
      cwd: d.cwd,
      uid: d.runAs?.uid,
      gid: d.runAs?.gid,
      detached: true,
      stdio: ['ignore', out, out],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        LC_ALL: 'C.UTF-8',
        LANG: 'C.UTF-8',
        ...d.env,
      } as unknown as NodeJS.ProcessEnv,
    });
    child.unref();
    if (!child.pid) throw new Error(`could not start ${d.program}`);
    fs.writeFileSync(d.pidFile, `${child.pid}\n`);
    return child.pid;
  } finally {
    fs.closeSync(out);
  }
}

/** Whether `pid` runs (a zombie does not). */
export function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** The PID a pid file names, if that process still runs and its command line holds `marker`
 * (else the PID was reused by something else). */
export function livePid(pidFile: string, marker: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return undefined;
  return cmdline(pid).includes(marker) ? pid : undefined;
}

/** The PIDs whose parent is `pid` (PostgreSQL's backends and auxiliary processes). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

/** Resolves once `pid` no longer runs; false after `timeoutMs`. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
