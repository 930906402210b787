// The high-availability database topology for development and fault drills: Patroni agents over
// one etcd, on Debian's PostgreSQL 15. The mothership's pair (a leader and a synchronous standby)
// plus one read replica per region, on free loopback ports, under one folder, created on first use
// and reused (docs/operations.md#high-availability-patroni-and-etcd).
import fs from 'node:fs';
import path from 'node:path';
import { freePort, portInUse } from '../ports';
import { pgRunAs, reachableDataDir, type RunAs } from '../embedded-pg/os-user';
import { runningPid } from '../embedded-pg/programs';
import { ADMIN_ROLE, APP_ROLE, connectionUrl, ensureRolesAndDatabase, OWNER_ROLE } from '../embedded-pg/roles';
import type { TopologyUrls } from '../embedded-pg/servers';
import { ensureEtcd, etcdPid, stopEtcd } from './etcd';
import { nodesFile, saveNodesFile, topologySignature, type NodesFile } from './nodes-file';
import { callPatroni, fetchCluster, type ClusterMember, type ClusterView } from './patroni-api';
import { dynamicSettings, patroniConfig, planNodes, REST_API_USER, type HaNode } from './patroni-config';
import { adminOn, caughtUpNodes, streamingNodes, walPosition } from './leader-sql';
import { describeMissing, findProgram, haPrerequisites } from './prerequisites';
import { childrenOf, livePid, signal, startDaemon, waitForExit } from './processes';
import { readHaState, saveHaState, type HaState } from './state';

export interface HaTopologyOptions {
  /** Folder that holds etcd's and every node's data (created if missing, reused if present). */
  dir: string;
  /** The first is the mothership (the leader and its sync standby); each gets a read replica. */
  regions: string[];
  /** fsync off when false: for throw-away test topologies only. */
  durable?: boolean;
  log?: (line: string) => void;
  /** `--ha --wan`: where each site's nodes dial the others from (dev/wan/topology.ts `haSites`). */
  sites?: HaWanSites;
}

/** How a site's nodes reach the mothership's over a WAN: from an address of their own. */
export interface HaWanSites {
  /** The site's loopback address, set as PGHOSTADDR for its agent (so its postmaster, pg_basebackup,
   * pg_rewind); undefined: the mothership, dialling 127.0.0.1 direct. */
  address(site: string): string | undefined;
  /** Makes `address(site)`:`port` reach 127.0.0.1:`port` over the site's link to the mothership. */
  expose(site: string, port: number): Promise<void>;
}

/** How often nodes.json is checked against Patroni's view while this object lives. */
const WATCH_MS = 2_000;
const READY_TIMEOUT_MS = 180_000;

export class HaTopology {
  private watcher: NodeJS.Timeout | undefined;
  private lastSignature = '';

  private constructor(
    readonly dir: string,
    readonly nodes: HaNode[],
    private readonly runAs: RunAs | undefined,
    private readonly state: HaState,
    private readonly durable: boolean,
    readonly log: (line: string) => void,
    private readonly sites?: HaWanSites,
  ) {}

  /** Creates the topology on first use, otherwise reuses it; starts etcd and every agent not running. */
  static async up(opts: HaTopologyOptions): Promise<HaTopology> {
    const pre = haPrerequisites();
    if (!pre.ok) throw new Error(describeMissing(pre));
    const log = opts.log ?? (() => {});
    const runAs = pgRunAs();
    const dir = reachableDataDir(path.resolve(opts.dir), runAs);
    const { state } = readHaState(dir);
    const t = new HaTopology(dir, planNodes(opts.regions), runAs, state, opts.durable ?? true, log, opts.sites);
    // Passwords first: no role or agent gets one that ha-state.json doesn't hold.
    t.saveState();
    for (const d of ['logs', 'nodes']) fs.mkdirSync(t.path(d), { recursive: true, mode: 0o700 });
    t.own(t.path('logs'), t.path('nodes'));
    try {
      await t.assignPorts();
      await ensureEtcd({ dir, runAs, ...state.etcd, log });
      const [first] = t.nodes;
      if (t.nodes.every((n) => !fs.existsSync(path.join(t.dataDir(n.name), 'PG_VERSION')))) {
        // A new cluster: the first node alone, so that it (not its twin) runs initdb and leads.
        await t.startAgent(first!);
        await t.waitFor(
          `${first!.name} to bootstrap`,
          READY_TIMEOUT_MS,
          async () => (await t.leader()) === first!.name,
        );
      }
      for (const n of t.nodes) await t.startAgent(n);
      await t.waitReady(READY_TIMEOUT_MS);
      // A cluster made by an earlier version keeps its settings in etcd: brought up to date.
      await t.patroniCall('PATCH', '/config', dynamicSettings());
      await ensureRolesAndDatabase(t.primaryAccess(await t.requireLeader()), log);
      await t.waitCaughtUp(READY_TIMEOUT_MS);
      await t.writeNodesFile();
    } catch (err) {
      await t.stop().catch(() => {});
      throw err;
    }
    t.watch();
    return t;
  }

  urls(): TopologyUrls {
    const { adminPassword: a, appPassword: p, ownerPassword: o } = this.state;
    const pair = this.nodes.filter((n) => n.candidate).map((n) => `127.0.0.1:${this.pgPort(n.name)}`);
    const multi = (user: string, password: string) =>
      `postgresql://${user}:${encodeURIComponent(password)}@${pair.join(',')}/meridian?target_session_attrs=read-write`;
    const replicas: Record<string, string> = {};
    const adminReplicas: Record<string, string> = {};
    for (const n of this.nodes.filter((x) => !x.candidate)) {
      replicas[n.site] = this.nodeUrl(n.name, 'app');
      adminReplicas[n.site] = this.nodeUrl(n.name, 'admin');
    }
    return {
      primary: multi(APP_ROLE, p),
      ownerPrimary: multi(OWNER_ROLE, o),
      adminPrimary: multi(ADMIN_ROLE, a),
      replicas,
      adminReplicas,
    };
  }

  /** One node, single host (what node-postgres parses): tests and drills aim at a node this way. */
  nodeUrl(name: string, as: 'app' | 'owner' | 'admin'): string {
    const s = this.state;
    const [user, password] =
      as === 'app'
        ? [APP_ROLE, s.appPassword]
        : as === 'owner'
          ? [OWNER_ROLE, s.ownerPassword]
          : [ADMIN_ROLE, s.adminPassword];
    return connectionUrl(user, password, this.pgPort(name));
  }

  /** Patroni's view (GET /cluster on the first agent that answers). */
  async cluster(): Promise<ClusterView> {
    return fetchCluster(this.nodes.map((n) => this.apiUrl(n.name)));
  }

  async leader(): Promise<string | undefined> {
    try {
      return (await this.cluster()).members.find((m) => m.role === 'leader')?.name;
    } catch {
      return undefined;
    }
  }

  /** nodes.json, now. */
  async writeNodesFile(): Promise<NodesFile> {
    const f = await this.describe();
    saveNodesFile(this.dir, f);
    this.lastSignature = topologySignature(f);
    return f;
  }

  /** Every node as Patroni (roles, timelines) and the machine (ports, PIDs) see it. */
  async describe(): Promise<NodesFile> {
    const view = await this.cluster().catch((): ClusterView => ({ members: [] }));
    const timelines = new Map<string, number>();
    await Promise.all(
      this.nodes.map(async (n) => {
        try {
          const res = await fetch(`${this.apiUrl(n.name)}/patroni`, { signal: AbortSignal.timeout(1_000) });
          const tl = ((await res.json()) as { timeline?: number }).timeline;
          if (tl) timelines.set(n.name, tl);
        } catch {
          /* agent down */
        }
      }),
    );
    return nodesFile(
      this.nodes,
      view,
      (name) => ({
        pgPort: this.pgPort(name),
        restApi: this.apiUrl(name),
        postmaster: this.postmasterPid(name),
        agent: this.agentPid(name),
        timeline: timelines.get(name),
      }),
      { url: `http://127.0.0.1:${this.state.etcd.clientPort}`, pid: etcdPid(this.dir) ?? null },
    );
  }

  /** A lost machine: SIGKILL the node's agent, its postmaster and the postmaster's children at once. */
  async killNode(name: string): Promise<void> {
    const agent = this.agentPid(name);
    const postmaster = this.postmasterPid(name);
    const pids = [
      ...(agent ? [agent, ...childrenOf(agent)] : []),
      ...(postmaster ? [postmaster, ...childrenOf(postmaster)] : []),
    ];
    for (const pid of pids) signal(pid, 'SIGKILL');
    await Promise.all(pids.map((pid) => waitForExit(pid, 10_000)));
    this.log(`killed node ${name} (agent ${agent ?? '-'}, postmaster ${postmaster ?? '-'})`);
  }

  /** Only the postmaster: its agent lives, notices, and restarts or replaces it. */
  async killPostmaster(name: string): Promise<void> {
    const pid = this.postmasterPid(name);
    if (!pid) throw new Error(`node ${name} has no running postmaster`);
    signal(pid, 'SIGKILL');
    await waitForExit(pid, 10_000);
    this.log(`killed the postmaster of ${name} (${pid})`);
  }

  /** Starts a stopped or killed node's agent; resolves once its REST API answers (it then
   * rejoins as a replica on its own, rewound onto the leader's timeline if it led before). */
  async startNode(name: string): Promise<void> {
    await this.startAgent(this.node(name));
    await this.waitFor(`${name}'s REST API`, 60_000, async () => {
      try {
        return (await fetch(`${this.apiUrl(name)}/liveness`, { signal: AbortSignal.timeout(1_000) })).ok;
      } catch {
        return false;
      }
    });
  }

  /** A planned switchover (POST /switchover); resolves once the new leader runs. */
  async switchover(candidate?: string): Promise<void> {
    const leader = await this.requireLeader();
    await this.patroniCall('POST', '/switchover', { leader, ...(candidate ? { candidate } : {}) });
    let now: string | undefined;
    await this.waitFor('the switchover', 60_000, async () => {
      const view = await this.cluster().catch(() => undefined);
      const m = view?.members.find((x) => x.role === 'leader');
      now = m?.state === 'running' && m.name !== leader ? m.name : undefined;
      return now !== undefined;
    });
    this.log(`switched over from ${leader} to ${now}`);
  }

  /** Stops every agent cleanly (each stops its PostgreSQL), the leader last so that no standby
   * is promoted meanwhile, then etcd. */
  async stop(): Promise<void> {
    if (this.watcher) clearInterval(this.watcher);
    this.watcher = undefined;
    const leader = await this.leader();
    const others = this.nodes.filter((n) => n.name !== leader);
    await Promise.all(others.map((n) => this.stopNode(n.name)));
    if (leader) await this.stopNode(leader);
    await stopEtcd(this.dir);
  }

  /** SIGTERM to the agent (it stops PostgreSQL, fast); SIGKILL after 60 s. A postmaster left
   * without its agent is stopped too. */
  private async stopNode(name: string): Promise<void> {
    const agent = this.agentPid(name);
    if (agent) {
      signal(agent, 'SIGTERM');
      if (!(await waitForExit(agent, 60_000))) {
        this.log(`the agent of ${name} did not stop within 60 s: killing it`);
        signal(agent, 'SIGKILL');
      }
    }
    const postmaster = this.postmasterPid(name);
    if (postmaster) {
      signal(postmaster, 'SIGINT');
      if (!(await waitForExit(postmaster, 30_000))) signal(postmaster, 'SIGKILL');
    }
  }

  pgPort(name: string): number {
    return this.state.nodes[name]!.pgPort;
  }

  /** What the app needs to show the cluster and ask for switchovers (DATABASE_HA_API_*). */
  managerEnv(): Record<string, string> {
    return {
      DATABASE_HA_API_URLS: this.nodes.map((n) => this.apiUrl(n.name)).join(','),
      DATABASE_HA_API_USER: REST_API_USER,
      DATABASE_HA_API_PASSWORD: this.state.restApiPassword,
    };
  }

  apiUrl(name: string): string {
    return `http://127.0.0.1:${this.state.nodes[name]!.apiPort}`;
  }

  postmasterPid(name: string): number | undefined {
    return runningPid(this.dataDir(name));
  }

  agentPid(name: string): number | undefined {
    return livePid(this.nodePath(name, 'patroni.pid'), this.nodePath(name, 'patroni.yml'));
  }

  /** Polls `ok` every 250 ms; throws after `timeoutMs` naming what it waited for. */
  async waitFor(what: string, timeoutMs: number, ok: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await ok())) {
      if (Date.now() > deadline) {
        const view = await this.cluster().catch(() => undefined);
        throw new Error(`waited ${timeoutMs / 1000} s for ${what}; Patroni sees: ${JSON.stringify(view?.members)}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  private node(name: string): HaNode {
    const n = this.nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no node ${name} (nodes: ${this.nodes.map((x) => x.name).join(', ')})`);
    return n;
  }

  private async requireLeader(): Promise<string> {
    const leader = await this.leader();
    if (!leader) throw new Error('the HA cluster has no leader now');
    return leader;
  }

  /** Every node a member, running, streaming from the one leader (as the leader's
   * pg_stat_replication says: Patroni reports a lag before the stream is up), the sync standby chosen. */
  private async waitReady(timeoutMs: number): Promise<void> {
    const ready = (members: ClusterMember[]) => {
      const leader = members.find((m) => m.role === 'leader');
      const byName = new Map(members.map((m) => [m.name, m]));
      return (
        leader?.state === 'running' &&
        this.nodes.every((n) => byName.get(n.name)?.state === 'running') &&
        members.some((m) => m.role === 'sync_standby') &&
        members.every((m) => m === leader || typeof m.lag === 'number')
      );
    };
    await this.waitFor('every node to run and stream', timeoutMs, async () => {
      const view = await this.cluster().catch(() => undefined);
      if (!view || !ready(view.members)) return false;
      const leader = view.members.find((m) => m.role === 'leader')!.name;
      const streaming = await streamingNodes(adminOn(this.pgPort(leader), this.state.adminPassword)).catch(
        (): string[] => [],
      );
      return this.nodes.every((n) => n.name === leader || streaming.includes(n.name));
    });
  }

  /** Every node has replayed all the leader wrote so far (the database and roles exist everywhere:
   * over a WAN the regions' replicas replay the CREATE DATABASE a link's latency later). */
  private async waitCaughtUp(timeoutMs: number): Promise<void> {
    const leader = await this.requireLeader();
    const admin = adminOn(this.pgPort(leader), this.state.adminPassword);
    const lsn = await walPosition(admin);
    await this.waitFor(`every node to replay the leader's WAL to ${lsn}`, timeoutMs, async () => {
      const done = await caughtUpNodes(admin, lsn).catch((): string[] => []);
      return this.nodes.every((n) => n.name === leader || done.includes(n.name));
    });
  }

  /** Unless its agent runs: the configuration (rewritten: ports may have moved), then the agent. */
  private async startAgent(n: HaNode): Promise<void> {
    if (this.agentPid(n.name)) return;
    // Over a WAN, a region's node dials the mothership's nodes (wherever the leader is) from its
    // own address, where the link's relays listen; it listens there too, for its own agent.
    const address = this.sites?.address(n.site);
    if (address) {
      for (const c of this.nodes.filter((x) => x.candidate)) await this.sites!.expose(n.site, this.pgPort(c.name));
    }
    const nodeDir = this.nodePath(n.name);
    fs.mkdirSync(path.join(nodeDir, 'log'), { recursive: true, mode: 0o700 });
    const { pgPort, apiPort } = this.state.nodes[n.name]!;
    const config = patroniConfig({
      node: n,
      pgPort,
      apiPort,
      etcdPort: this.state.etcd.clientPort,
      dataDir: this.dataDir(n.name),
      nodeDir,
      durable: this.durable,
      address,
      passwords: {
        admin: this.state.adminPassword,
        replication: this.state.replicationPassword,
        restApi: this.state.restApiPassword,
      },
    });
    const configFile = this.nodePath(n.name, 'patroni.yml');
    fs.writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
    fs.chmodSync(nodeDir, 0o700);
    // Not the data folder: PostgreSQL made it, as the database user.
    this.own(nodeDir, path.join(nodeDir, 'log'), configFile);
    startDaemon({
      program: findProgram('patroni') ?? 'patroni',
      args: [configFile],
      cwd: nodeDir,
      logFile: this.path('logs', `${n.name}.out`),
      pidFile: this.nodePath(n.name, 'patroni.pid'),
      runAs: this.runAs,
      env: address ? { PGHOSTADDR: address } : undefined,
    });
    this.log(`patroni ${n.name} started (PostgreSQL on 127.0.0.1:${pgPort}, REST API ${this.apiUrl(n.name)})`);
  }

  /** Ports kept across restarts; a new one where the old is taken by something else. */
  private async assignPorts(): Promise<void> {
    const s = this.state;
    const etcdUp = etcdPid(this.dir) !== undefined;
    for (const k of ['clientPort', 'peerPort'] as const) {
      if (!etcdUp && (!s.etcd[k] || (await portInUse(s.etcd[k])))) s.etcd[k] = await freePort();
    }
    for (const n of this.nodes) {
      const entry = s.nodes[n.name] ?? { pgPort: 0, apiPort: 0 };
      const pgUp = this.postmasterPid(n.name) !== undefined;
      const agentUp = this.agentPid(n.name) !== undefined;
      if (!pgUp && (!entry.pgPort || (await portInUse(entry.pgPort)))) entry.pgPort = await freePort();
      if (!agentUp && (!entry.apiPort || (await portInUse(entry.apiPort)))) entry.apiPort = await freePort();
      s.nodes[n.name] = entry;
    }
    this.saveState();
  }

  /** An unsafe REST call to the leader's agent (any agent when there is no leader). */
  private async patroniCall(method: 'POST' | 'PATCH', route: string, body: unknown): Promise<string> {
    const leader = await this.leader();
    return callPatroni(this.apiUrl(leader ?? this.nodes[0]!.name), method, route, body, this.state.restApiPassword);
  }

  /** What roles.ts needs: the passwords, and superuser queries on the leader. */
  private primaryAccess(leader: string) {
    const s = this.state;
    const port = this.pgPort(leader);
    return {
      state: {
        version: 1 as const,
        adminPassword: s.adminPassword,
        appPassword: s.appPassword,
        ownerPassword: s.ownerPassword,
        replicationPassword: s.replicationPassword,
        primary: { port },
        replicas: {},
      },
      admin: adminOn(port, s.adminPassword),
    };
  }

  /** nodes.json rewritten whenever what it says changes, while this object lives; a line to the
   * log when a node's role, state or timeline does. */
  private watch(): void {
    let busy = false;
    let summary = '';
    this.watcher = setInterval(() => {
      if (busy) return;
      busy = true;
      void this.describe()
        .then((f) => {
          if (topologySignature(f) === this.lastSignature) return;
          saveNodesFile(this.dir, f);
          this.lastSignature = topologySignature(f);
          const now = f.nodes
            .map((n) => `${n.name} ${n.role ?? 'absent'}/${n.state ?? '-'}${n.timeline ? ` tl${n.timeline}` : ''}`)
            .join(', ');
          if (now !== summary && summary) this.log(`HA topology now: ${now}`);
          summary = now;
        })
        .catch(() => {})
        .finally(() => (busy = false));
    }, WATCH_MS);
    this.watcher.unref();
  }

  /** Hands folders and files (not their contents) to the database OS user, when there is one. */
  private own(...paths: string[]): void {
    if (this.runAs) for (const p of paths) fs.chownSync(p, this.runAs.uid, this.runAs.gid);
  }

  private saveState(): void {
    saveHaState(this.dir, this.state);
  }

  private path(...parts: string[]): string {
    return path.join(this.dir, ...parts);
  }

  private nodePath(name: string, ...parts: string[]): string {
    return this.path('nodes', name, ...parts);
  }

  dataDir(name: string): string {
    return this.nodePath(name, 'data');
  }
}
