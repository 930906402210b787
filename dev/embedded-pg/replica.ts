// A region's streaming replica: a hot base backup of the running primary, and the standby's
// link to it (rewritten on every start).
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { chownTree, type RunAs } from './os-user';
import { REPLICATION_ROLE, slotName } from './roles';
import type { StateFile } from './state';

/** What a replica is made from: the primary's folder and connections, the topology's state. */
export interface ReplicaSource {
  primaryDir: string;
  dataDir(region: string): string;
  state: StateFile;
  runAs: RunAs | undefined;
  connectAs<T>(fn: (c: pg.Client) => Promise<T>, opts: { user: string; password: string }): Promise<T>;
  log: (line: string) => void;
}

/**
 * A hot base backup of the running primary (there is no pg_basebackup in the package):
 * a replication slot, pg_backup_start, a copy of the data folder, pg_backup_stop's label,
 * then standby.signal so the copy starts as a streaming standby.
 */
export async function createReplica(t: ReplicaSource, region: string): Promise<void> {
  const { primaryDir } = t;
  const dataDir = t.dataDir(region);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const asReplicationRole = { user: REPLICATION_ROLE, password: t.state.replicationPassword };
  await t.connectAs(async (c) => {
    const slot = slotName(region);
    await c.query(
      `SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1 AND NOT active`,
      [slot],
    );
    await c.query('SELECT pg_create_physical_replication_slot($1, true)', [slot]);
    await c.query(`SELECT pg_backup_start($1, true)`, [`meridian-${region}`]);
    try {
      const skip = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map']);
      const emptied = new Set([
        'pg_wal',
        'pg_replslot',
        'pg_stat_tmp',
        'pg_dynshmem',
        'pg_notify',
        'pg_serial',
        'pg_snapshots',
        'pg_subtrans',
      ]);
      fs.cpSync(primaryDir, dataDir, {
        recursive: true,
        filter: (src) => {
          const rel = path.relative(primaryDir, src);
          if (rel === '') return true;
          const [top, ...rest] = rel.split(path.sep);
          if (rest.length === 0 && skip.has(top!)) return false;
          if (emptied.has(top!) && rest.length > 0) return rest[0] === 'archive_status' && rest.length === 1;
          return true;
        },
      });
    } finally {
      const stop = await c.query<{ labelfile: string; spcmapfile: string }>(
        'SELECT labelfile, spcmapfile FROM pg_backup_stop(false)',
      );
      const { labelfile, spcmapfile } = stop.rows[0]!;
      if (fs.existsSync(dataDir)) {
        fs.writeFileSync(path.join(dataDir, 'backup_label'), labelfile);
        if (spcmapfile) fs.writeFileSync(path.join(dataDir, 'tablespace_map'), spcmapfile);
      }
    }
  }, asReplicationRole);
  fs.mkdirSync(path.join(dataDir, 'pg_wal', 'archive_status'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'standby.signal'), '');
  fs.chmodSync(dataDir, 0o700);
  chownTree(dataDir, t.runAs);
  t.state.replicas[region] = { port: 0 };
  t.log(`postgres replica ${region} copied from a base backup`);
}

/** The standby's link to the primary; rewritten on every start since the primary's port may
 * move (and so that a replica of an older data folder stops using the superuser). `port`: the one
 * it dials, the primary's own unless a WAN relay stands between them (dev/wan/topology.ts).
 * Whether the file changed. */
export function writeStandbyConf(t: ReplicaSource, region: string, port = t.state.primary.port): boolean {
  const file = path.join(t.dataDir(region), 'postgresql.auto.conf');
  const conninfo = `host=127.0.0.1 port=${port} user=${REPLICATION_ROLE} password=${t.state.replicationPassword} application_name=${region}`;
  const lines = [
    '# Written by Meridian (dev/embedded-pg/replica.ts) on every start.',
    `primary_conninfo = '${conninfo}'`,
    `primary_slot_name = '${slotName(region)}'`,
    '',
  ];
  const text = lines.join('\n');
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return false;
  fs.writeFileSync(file, text, { mode: 0o600 });
  chownTree(file, t.runAs);
  return true;
}
