// The HA topology's etcd: one member on loopback (production runs three, on three machines, so
// that losing one keeps a quorum), holding Patroni's leader lease and cluster state.
import fs from 'node:fs';
import path from 'node:path';
import type { RunAs } from '../embedded-pg/os-user';
import { livePid, signal, startDaemon, waitForExit } from './processes';
import { findProgram } from './prerequisites';

export interface EtcdPlace {
  /** The topology's folder: etcd's data goes in `etcd/`, its pid file beside it, its log in `logs/`. */
  dir: string;
  runAs: RunAs | undefined;
  clientPort: number;
  peerPort: number;
  log: (line: string) => void;
}

const MEMBER = 'meridian-ha';
const dataDir = (dir: string) => path.join(dir, 'etcd');
const pidFile = (dir: string) => path.join(dir, 'etcd.pid');

export function etcdPid(dir: string): number | undefined {
  return livePid(pidFile(dir), dataDir(dir));
}

/** Starts etcd unless it runs; resolves once it reports itself healthy. */
export async function ensureEtcd(e: EtcdPlace): Promise<void> {
  const client = `http://127.0.0.1:${e.clientPort}`;
  if (etcdPid(e.dir)) {
    e.log(`etcd already running on ${client}`);
  } else {
    const data = dataDir(e.dir);
    fs.mkdirSync(data, { recursive: true, mode: 0o700 });
    fs.chmodSync(data, 0o700);
    if (e.runAs) fs.chownSync(data, e.runAs.uid, e.runAs.gid);
    const peer = `http://127.0.0.1:${e.peerPort}`;
    startDaemon({
      program: findProgram('etcd') ?? 'etcd',
      args: [
        `--name=${MEMBER}`,
        `--data-dir=${data}`,
        `--listen-client-urls=${client}`,
        `--advertise-client-urls=${client}`,
        `--listen-peer-urls=${peer}`,
        `--initial-advertise-peer-urls=${peer}`,
        `--initial-cluster=${MEMBER}=${peer}`,
        '--initial-cluster-state=new',
        `--initial-cluster-token=${MEMBER}`,
        // Patroni renews its lease every loop: keep the history (and the database) small.
        '--auto-compaction-mode=revision',
        '--auto-compaction-retention=1000',
        '--snapshot-count=10000',
        '--logger=zap',
        '--log-level=warn',
      ],
      cwd: e.dir,
      logFile: path.join(e.dir, 'logs', 'etcd.log'),
      pidFile: pidFile(e.dir),
      runAs: e.runAs,
    });
    e.log(`etcd started on ${client}`);
  }
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${client}/health`, { signal: AbortSignal.timeout(1_000) });
      if (res.ok && ((await res.json()) as { health?: string }).health === 'true') return;
    } catch {
      /* not listening yet */
    }
    if (!etcdPid(e.dir)) throw new Error(`etcd exited: see ${path.join(e.dir, 'logs', 'etcd.log')}`);
    if (Date.now() > deadline) throw new Error(`etcd on ${client} was not healthy within 30 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** SIGTERM, then SIGKILL after 10 s. */
export async function stopEtcd(dir: string): Promise<void> {
  const pid = etcdPid(dir);
  if (!pid) return;
  signal(pid, 'SIGTERM');
  if (!(await waitForExit(pid, 10_000))) signal(pid, 'SIGKILL');
}
