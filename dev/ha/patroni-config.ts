// The HA topology's shape (which nodes, where, which may lead) and each Patroni agent's
// configuration (docs/operations.md#high-availability-patroni-and-etcd).
import { ADMIN_ROLE, REPLICATION_ROLE } from '../embedded-pg/roles';
import { PG_BIN_DIR } from './prerequisites';

/** A database node: one of the mothership's pair (may lead, may be the sync standby) or a
 * region's read replica (never either). */
export interface HaNode {
  name: string;
  site: string;
  candidate: boolean;
}

/** The mothership (the first region) holds `<site>-a` and `<site>-b`; every region, the
 * mothership included, one read replica `<region>-r`. */
export function planNodes(regions: string[]): HaNode[] {
  const [mothership] = regions;
  if (!mothership) throw new Error('the HA topology needs at least one region');
  return [
    { name: `${mothership}-a`, site: mothership, candidate: true },
    { name: `${mothership}-b`, site: mothership, candidate: true },
    ...regions.map((site) => ({ name: `${site}-r`, site, candidate: false })),
  ];
}

export const PATRONI_SCOPE = 'meridian';
export const PATRONI_NAMESPACE = '/meridian/';
/** The user of the REST API's basic auth (switchover, config); reads need none. */
export const REST_API_USER = 'meridian';

/**
 * The leader lease, and why these numbers.
 * - ttl 20 s (Patroni's minimum): the leader key's lease in etcd. An agent that dies with its
 *   machine holds the key until the lease runs out, so it bounds failover after a lost machine.
 *   When it runs out the standbys wake at once (Patroni watches the leader key in etcd 3).
 * - loop_wait 1 s (Patroni's minimum): how often each agent runs its HA loop (the leader renews
 *   its lease, every agent checks its PostgreSQL). A crashed postmaster is seen within a loop and
 *   the lease is renewed every loop, so less of it is left to wait out when the leader dies.
 *   Five idle agents then cost about 1% of a core, etcd about as much (docs/operations.md).
 * - retry_timeout 9 s: how long an agent retries etcd or PostgreSQL before it gives up; a leader
 *   that could not renew within it demotes itself. Patroni needs loop_wait + 2 × retry_timeout
 *   ≤ ttl (1 + 18 = 19) so that a leader cut off from etcd has stopped taking writes before its
 *   lease can expire and a standby is promoted: never two primaries.
 * A lost leader machine thus costs the rest of its lease (19–20 s) plus a promotion (~1 s).
 */
export const LEASE = { ttl: 20, loop_wait: 1, retry_timeout: 9 } as const;

/** What lives in etcd (Patroni's dynamic configuration): set at bootstrap, re-applied on every start. */
export function dynamicSettings() {
  return {
    ...LEASE,
    // A commit returns once the sync standby has its WAL (synchronous_commit = on). Non-strict:
    // with the standby down, the leader goes on alone rather than refusing writes.
    synchronous_mode: true,
    synchronous_mode_strict: false,
    synchronous_node_count: 1,
    maximum_lag_on_failover: 1024 * 1024,
  };
}

/** Cluster-wide PostgreSQL settings: the ones Patroni takes from etcd only (equal on every node). */
const clusterParameters = {
  wal_level: 'replica',
  // pg_rewind needs hint-bit changes in the WAL (Patroni forces this on too) and full pages.
  wal_log_hints: 'on',
  full_page_writes: 'on',
  max_connections: 200,
  max_wal_senders: 16,
  max_replication_slots: 16,
  wal_keep_size: '64MB',
  hot_standby: 'on',
};

export interface NodeConfigInput {
  node: HaNode;
  pgPort: number;
  apiPort: number;
  etcdPort: number;
  dataDir: string;
  nodeDir: string;
  durable: boolean;
  passwords: { admin: string; replication: string; restApi: string };
  /** `--ha --wan`: the node's own loopback address (it listens there too, and dials from there). */
  address?: string;
}

/** One agent's patroni.yml (written as JSON, which YAML reads). Rewritten on every start. */
export function patroniConfig(c: NodeConfigInput): Record<string, unknown> {
  const api = `127.0.0.1:${c.apiPort}`;
  const pg = `127.0.0.1:${c.pgPort}`;
  const listen = c.address ? `127.0.0.1,${c.address}:${c.pgPort}` : pg;
  return {
    scope: PATRONI_SCOPE,
    namespace: PATRONI_NAMESPACE,
    name: c.node.name,
    log: { level: 'INFO', dir: `${c.nodeDir}/log`, file_num: 3, file_size: 4 * 1024 * 1024 },
    restapi: {
      listen: api,
      connect_address: api,
      authentication: { username: REST_API_USER, password: c.passwords.restApi },
    },
    etcd3: { hosts: [`127.0.0.1:${c.etcdPort}`] },
    watchdog: { mode: 'off' },
    bootstrap: {
      dcs: { ...dynamicSettings(), postgresql: { use_slots: true, parameters: clusterParameters } },
      initdb: [{ encoding: 'UTF8' }, 'no-locale', { 'auth-host': 'scram-sha-256' }, { 'auth-local': 'scram-sha-256' }],
    },
    postgresql: {
      listen,
      connect_address: pg,
      data_dir: c.dataDir,
      bin_dir: PG_BIN_DIR,
      pgpass: `${c.nodeDir}/pgpass`,
      // No rewind role of its own: pg_rewind runs as the superuser.
      authentication: {
        superuser: { username: ADMIN_ROLE, password: c.passwords.admin },
        replication: { username: REPLICATION_ROLE, password: c.passwords.replication },
      },
      // A former leader rejoins as a replica: rewound onto the new timeline, or, when rewinding
      // fails or the timelines cannot be reconciled, wiped and cloned again. Never a second primary.
      use_pg_rewind: true,
      remove_data_directory_on_rewind_failure: true,
      remove_data_directory_on_diverged_timelines: true,
      basebackup: [{ checkpoint: 'fast' }],
      pg_hba: [
        `host replication ${REPLICATION_ROLE} 127.0.0.1/32 scram-sha-256`,
        'host all all 127.0.0.1/32 scram-sha-256',
        ...(c.address ? [`host all all ${c.address}/32 scram-sha-256`] : []),
      ],
      parameters: {
        unix_socket_directories: '',
        synchronous_commit: 'on',
        hot_standby_feedback: 'on',
        shared_buffers: '64MB',
        logging_collector: 'on',
        log_directory: 'log',
        log_filename: 'postgresql-%a.log',
        log_truncate_on_rotation: 'on',
        log_min_messages: 'warning',
        log_line_prefix: '%m [%p] ',
        // Throw-away test topologies: no fsync (a SIGKILL loses nothing the OS already has).
        ...(c.durable ? {} : { fsync: 'off' }),
      },
    },
    tags: { nofailover: !c.node.candidate, nosync: !c.node.candidate, noloadbalance: false, clonefrom: false },
  };
}
