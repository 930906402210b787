// A new primary: initdb (scram-sha-256, the superuser's password from state.json) and the
// settings a streaming topology needs.
import fs from 'node:fs';
import path from 'node:path';
import { chownTree, type RunAs } from './os-user';
import type { PgPrograms } from './programs';
import { ADMIN_ROLE } from './roles';

export interface NewServer {
  dataDir: string;
  logsDir: string;
  adminPassword: string;
  programs: PgPrograms;
  runAs: RunAs | undefined;
  log: (line: string) => void;
}

/** PostgreSQL's shared_buffers for a new topology: MERIDIAN_PG_SHARED_BUFFERS (`<n>MB|GB`), else 64MB. */
function sharedBuffers(): string {
  const v = process.env.MERIDIAN_PG_SHARED_BUFFERS?.trim() ?? '';
  if (v === '') return '64MB';
  if (!/^\d{1,6}(MB|GB)$/.test(v)) throw new Error(`MERIDIAN_PG_SHARED_BUFFERS=${v}: give a size like 512MB or 2GB`);
  return v;
}

export async function initPrimary(t: NewServer, durable: boolean): Promise<void> {
  const { dataDir } = t;
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { mode: 0o700 });
  chownTree(dataDir, t.runAs);
  const pwFile = path.join(t.logsDir, '.pwfile');
  fs.writeFileSync(pwFile, t.adminPassword + '\n', { mode: 0o600 });
  chownTree(pwFile, t.runAs);
  try {
    await t.programs.run('initdb', [
      '-D',
      dataDir,
      '-U',
      ADMIN_ROLE,
      '--pwfile',
      pwFile,
      '--auth-local=scram-sha-256',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--no-locale',
      '--no-instructions',
    ]);
  } finally {
    fs.rmSync(pwFile, { force: true });
  }
  const conf = [
    '',
    '# ---- Meridian embedded topology ----',
    "listen_addresses = '127.0.0.1'",
    "unix_socket_directories = ''",
    'wal_level = replica',
    'max_wal_senders = 16',
    'max_replication_slots = 16',
    'hot_standby = on',
    'hot_standby_feedback = on',
    'max_connections = 200',
    // Small by default (a laptop runs three topologies at once); the scale bench sizes it as a
    // database of its size would be (MERIDIAN_PG_SHARED_BUFFERS, e.g. 1GB). Replicas copy it.
    `shared_buffers = '${sharedBuffers()}'`,
    "wal_keep_size = '64MB'",
    "log_min_messages = 'warning'",
    "log_line_prefix = '%m [%p] '",
    ...(durable ? [] : ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off']),
    '',
  ].join('\n');
  fs.appendFileSync(path.join(dataDir, 'postgresql.conf'), conf);
  t.log('postgres primary initialised');
}
