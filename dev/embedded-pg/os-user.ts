// PostgreSQL refuses to run as root: then the embedded servers run as an unprivileged system user
// that can reach the binaries and the data folder (docs/operations.md).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const PG_OS_USER = 'meridian-pg';
/** Root-owned, world-traversable home for binaries/data that the project folder can't offer. */
export const SYSTEM_DIR = '/var/lib/meridian';

export interface RunAs {
  uid: number;
  gid: number;
}

/** undefined when we are not root: then servers simply run as the current user. */
export function pgRunAs(): RunAs | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const lookup = () => {
    const r = spawnSync('id', ['-u', PG_OS_USER], { encoding: 'utf8' });
    if (r.status !== 0) return undefined;
    const g = spawnSync('id', ['-g', PG_OS_USER], { encoding: 'utf8' });
    return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
  };
  let ids = lookup();
  if (!ids) {
    execFileSync('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--home-dir',
      '/nonexistent',
      '--shell',
      '/usr/sbin/nologin',
      PG_OS_USER,
    ]);
    ids = lookup();
    if (!ids) throw new Error(`could not create the ${PG_OS_USER} system user`);
  }
  return ids;
}

/** Whether `runAs` can run `test <flag> target` successfully (reachability through every ancestor). */
export function canAccess(runAs: RunAs, target: string, flag: '-x' | '-w' | '-r' = '-x'): boolean {
  const r = spawnSync('test', [flag, target], { uid: runAs.uid, gid: runAs.gid });
  return r.status === 0;
}

/**
 * The PostgreSQL bin folder `runAs` can execute. If the package's own copy is unreachable
 * (checkout under a 0700 home), a root-owned, world-readable copy under SYSTEM_DIR is made once.
 */
export function reachableBinDir(binDir: string, version: string, runAs: RunAs | undefined): string {
  if (!runAs) return binDir;
  const probe = (dir: string) =>
    spawnSync(path.join(dir, 'postgres'), ['--version'], { uid: runAs.uid, gid: runAs.gid }).status === 0;
  if (probe(binDir)) return binDir;
  const nativeDir = path.dirname(binDir);
  const copy = path.join(SYSTEM_DIR, `pg-${version}`);
  if (!probe(path.join(copy, 'bin'))) {
    fs.mkdirSync(SYSTEM_DIR, { recursive: true, mode: 0o755 });
    fs.chmodSync(SYSTEM_DIR, 0o755);
    fs.rmSync(copy, { recursive: true, force: true });
    execFileSync('cp', ['-a', nativeDir, copy]);
    execFileSync('chmod', ['-R', 'a+rX', copy]);
  }
  return path.join(copy, 'bin');
}

/**
 * Makes `dir` a folder `runAs` can traverse. If the project folder is unreachable for it,
 * `dir` becomes a symlink to a folder under SYSTEM_DIR named by a hash of `dir`'s path.
 */
export function reachableDataDir(dir: string, runAs: RunAs | undefined): string {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  if (!fs.existsSync(dir)) fs.mkdirSync(dir, { mode: 0o711 });
  if (!runAs) return fs.realpathSync(dir);
  fs.chmodSync(fs.realpathSync(dir), 0o711);
  if (canAccess(runAs, dir)) return fs.realpathSync(dir);
  const hash = createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16);
  const target = path.join(SYSTEM_DIR, 'topologies', hash);
  fs.mkdirSync(target, { recursive: true, mode: 0o711 });
  for (const d of [SYSTEM_DIR, path.dirname(target)]) fs.chmodSync(d, 0o711);
  fs.chmodSync(target, 0o711);
  if (fs.lstatSync(dir).isDirectory() && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  if (!fs.existsSync(dir)) fs.symlinkSync(target, dir);
  return fs.realpathSync(dir);
}

/** chown -R, only when running as root for another user. */
export function chownTree(dir: string, runAs: RunAs | undefined): void {
  if (!runAs) return;
  execFileSync('chown', ['-R', `${runAs.uid}:${runAs.gid}`, dir]);
}
