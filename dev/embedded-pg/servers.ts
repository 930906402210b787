// The embedded database topology (a primary plus one streaming replica per region, on free loopback
// ports), created on first use and reused, its roles brought up to date (docs/architecture.md).
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort, portInUse } from '../ports';
import { chownTree, pgRunAs, reachableBinDir, reachableDataDir, type RunAs } from './os-user';
import { initPrimary, type NewServer } from './primary';
import { binaries, PgPrograms, runningPid } from './programs';
import { createReplica, writeStandbyConf } from './replica';
import { ADMIN_ROLE, APP_ROLE, connectionUrl, ensureRolesAndDatabase, OWNER_ROLE } from './roles';
import { readState, saveState, type StateFile } from './state';

export interface TopologyOptions {
  /** Folder that holds every server's data (created if missing). */
  dir: string;
  /** Regions; each gets one streaming replica. */
  regions: string[];
  /** fsync off: for throw-away test topologies only. */
  durable?: boolean;
  log?: (line: string) => void;
  /**
   * The port a region's replica dials to stream WAL from the primary (listening on
   * `primaryPort`): a WAN relay (dev/wan/topology.ts). Default: the primary's own.
   */
  primaryPortFor?: (region: string, primaryPort: number) => number | Promise<number>;
}

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

export class EmbeddedTopology {
  private constructor(
    readonly dir: string,
    readonly regions: string[],
    private readonly programs: PgPrograms,
    readonly runAs: RunAs | undefined,
    readonly state: StateFile,
    readonly log: (line: string) => void,
    private readonly primaryPortFor?: TopologyOptions['primaryPortFor'],
  ) {}

  /** Creates the topology on first use, otherwise reuses it; starts every server not running. */
  static async up(opts: TopologyOptions): Promise<EmbeddedTopology> {
    const log = opts.log ?? (() => {});
    const runAs = pgRunAs();
    const { binDir: pkgBin, version } = binaries();
    const binDir = reachableBinDir(pkgBin, version, runAs);
    const dir = reachableDataDir(path.resolve(opts.dir), runAs);
    const { state, fresh } = readState(dir);
    const topo = new EmbeddedTopology(
      dir,
      opts.regions,
      new PgPrograms(binDir, runAs, dir),
      runAs,
      state,
      log,
      opts.primaryPortFor,
    );
    // Passwords first: a role is never created with a password that state.json doesn't hold.
    topo.saveState();
    fs.mkdirSync(topo.path('logs'), { recursive: true, mode: 0o700 });
    chownTree(topo.path('logs'), runAs);

    try {
      if (fresh || !fs.existsSync(topo.path('primary', 'PG_VERSION'))) {
        await initPrimary(topo.newPrimary(), opts.durable ?? true);
      }
      await topo.startServer('primary');
      // Every start, not only the first: it is what upgrades a data folder made by an older
      // version (roles missing, the app role owning everything). Before the replicas start,
      // since their primary_conninfo names the replication role.
      await ensureRolesAndDatabase(topo, log);
      for (const region of opts.regions) {
        if (!fs.existsSync(topo.path(`replica-${region}`, 'PG_VERSION'))) await createReplica(topo, region);
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
    if (!runningPid(dataDir)) return;
    await this.programs.pgCtl(['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  /** Starts one server unless it is already running; clears a stale lock of a crashed run. */
  async startServer(name: string): Promise<void> {
    const dataDir = this.dataDir(name);
    const server = name === 'primary' ? this.state.primary : this.state.replicas[name];
    if (runningPid(dataDir) && server && server.port) {
      this.log(`postgres ${name} already running on port ${server.port}`);
      // Left running by an earlier run, maybe dialling a WAN relay that is gone (or now wanted):
      // primary_conninfo takes effect on a reload.
      if (name !== 'primary' && (await this.writeStandbyConf(name))) {
        await this.programs.pgCtl(['-D', dataDir, 'reload']);
      }
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
    if (name !== 'primary') await this.writeStandbyConf(name);
    this.saveState();
    await this.programs.pgCtl([
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

  /** A replica's link to the primary, direct or through `primaryPortFor`'s port; whether it changed. */
  private async writeStandbyConf(region: string): Promise<boolean> {
    const port = this.state.primary.port;
    return writeStandbyConf(this, region, (await this.primaryPortFor?.(region, port)) ?? port);
  }

  private path(...parts: string[]): string {
    return path.join(this.dir, ...parts);
  }

  dataDir(name: string): string {
    return this.path(name === 'primary' ? 'primary' : `replica-${name}`);
  }

  private saveState(): void {
    saveState(this.dir, this.state);
  }

  get primaryDir(): string {
    return this.dataDir('primary');
  }

  private newPrimary(): NewServer {
    const { runAs, log, programs } = this;
    return {
      dataDir: this.primaryDir,
      logsDir: this.path('logs'),
      adminPassword: this.state.adminPassword,
      programs,
      runAs,
      log,
    };
  }

  /** A connection to the primary as `user` (the superuser unless told otherwise). */
  async connectAs<T>(
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
    c.on('error', () => {}); // a node stopping under it: the next call fails instead
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  }

  admin<T>(fn: (c: pg.Client) => Promise<T>, database = 'postgres'): Promise<T> {
    return this.connectAs(fn, { database });
  }
}
