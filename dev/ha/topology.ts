// The high-availability database topology for development and fault drills: Patroni agents over
// one etcd, on Debian's PostgreSQL 15. The mothership's pair (a leader and a synchronous standby)
// plus one read replica per region, on free loopback ports, under one folder, created on first use
// and reused (docs/operations.md#high-availability-patroni-and-etcd).
import fs from 'node:fs';
import path from 'node:path';
import { pgRunAs, reachableDataDir, type RunAs } from '../embedded-pg/os-user';
import { ensureRolesAndDatabase } from '../embedded-pg/roles';
import type { TopologyUrls } from '../embedded-pg/servers';
import {
  agentPid,
  type AgentsContext,
  apiUrl,
  dataDir,
  describeNodes,
  type HaWanSites,
  killNode,
  killPostmaster,
  own,
  postmasterPid,
  startAgent,
  stopAgent,
} from './agents';
import { managerEnv, nodeUrl, primaryAccess, type Role, topologyUrls } from './connections';
import { ensureEtcd, etcdPid, stopEtcd } from './etcd';
import { saveNodesFile, topologySignature, type NodesFile } from './nodes-file';
import { callPatroni, fetchCluster, type ClusterView } from './patroni-api';
import { dynamicSettings, planNodes, type HaNode } from './patroni-config';
import { describeMissing, haPrerequisites } from './prerequisites';
import { waitCaughtUp, waitReady, type ReadinessProbe } from './readiness';
import { assignPorts, readHaState, saveHaState, type HaState } from './state';

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
      await assignPorts(t.dir, t.nodes, t.state, {
        etcd: etcdPid(dir) !== undefined,
        postmaster: (name) => t.postmasterPid(name) !== undefined,
        agent: (name) => t.agentPid(name) !== undefined,
      });
      await ensureEtcd({ dir, runAs, ...state.etcd, log });
      const [first] = t.nodes;
      if (t.nodes.every((n) => !fs.existsSync(path.join(t.dataDir(n.name), 'PG_VERSION')))) {
        // A new cluster: the first node alone, so that it (not its twin) runs initdb and leads.
        await startAgent(t.agents(), first!);
        await t.waitFor(
          `${first!.name} to bootstrap`,
          READY_TIMEOUT_MS,
          async () => (await t.leader()) === first!.name,
        );
      }
      for (const n of t.nodes) await startAgent(t.agents(), n);
      await waitReady(t.probe(), READY_TIMEOUT_MS);
      // A cluster made by an earlier version keeps its settings in etcd: brought up to date.
      await t.patroniCall('PATCH', '/config', dynamicSettings());
      const leader = await t.requireLeader();
      await ensureRolesAndDatabase(primaryAccess(t.state, t.pgPort(leader)), log);
      await waitCaughtUp(t.probe(), leader, READY_TIMEOUT_MS);
      await t.writeNodesFile();
    } catch (err) {
      await t.stop().catch(() => {});
      throw err;
    }
    t.watch();
    return t;
  }

  /** The app's, the owner's and the admin's URLs: the pair by target_session_attrs, a replica per region. */
  urls(): TopologyUrls {
    return topologyUrls(this.nodes, this.state);
  }

  /** One node, single host (what node-postgres parses): tests and drills aim at a node this way. */
  nodeUrl(name: string, as: Role): string {
    return nodeUrl(this.state, name, as);
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
    return describeNodes(this.agents(), await this.cluster().catch((): ClusterView => ({ members: [] })), {
      url: `http://127.0.0.1:${this.state.etcd.clientPort}`,
      pid: etcdPid(this.dir) ?? null,
    });
  }

  /** A lost machine: SIGKILL the node's agent, its postmaster and the postmaster's children at once. */
  killNode(name: string): Promise<void> {
    return killNode(this.agents(), name);
  }

  /** Only the postmaster: its agent lives, notices, and restarts or replaces it. */
  killPostmaster(name: string): Promise<void> {
    return killPostmaster(this.agents(), name);
  }

  /** Starts a stopped or killed node's agent; resolves once its REST API answers (it then
   * rejoins as a replica on its own, rewound onto the leader's timeline if it led before). */
  async startNode(name: string): Promise<void> {
    await startAgent(this.agents(), this.node(name));
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
    await Promise.all(others.map((n) => stopAgent(this.agents(), n.name)));
    if (leader) await stopAgent(this.agents(), leader);
    await stopEtcd(this.dir);
  }

  pgPort(name: string): number {
    return this.state.nodes[name]!.pgPort;
  }

  /** What the app needs to show the cluster and ask for switchovers (DATABASE_HA_API_*). */
  managerEnv(): Record<string, string> {
    return managerEnv(this.nodes, this.state);
  }

  apiUrl(name: string): string {
    return apiUrl(this.state, name);
  }

  postmasterPid(name: string): number | undefined {
    return postmasterPid(this.dir, name);
  }

  agentPid(name: string): number | undefined {
    return agentPid(this.dir, name);
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

  /** What readiness.ts asks of the topology. */
  private probe(): ReadinessProbe {
    return {
      nodes: this.nodes,
      adminPassword: this.state.adminPassword,
      pgPort: (name) => this.pgPort(name),
      cluster: () => this.cluster(),
      waitFor: (what, ms, ok) => this.waitFor(what, ms, ok),
    };
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

  /** An unsafe REST call to the leader's agent (any agent when there is no leader). */
  private async patroniCall(method: 'POST' | 'PATCH', route: string, body: unknown): Promise<string> {
    const leader = await this.leader();
    return callPatroni(this.apiUrl(leader ?? this.nodes[0]!.name), method, route, body, this.state.restApiPassword);
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

  private own(...paths: string[]): void {
    own(this.runAs, ...paths);
  }

  private saveState(): void {
    saveHaState(this.dir, this.state);
  }

  private path(...parts: string[]): string {
    return path.join(this.dir, ...parts);
  }

  dataDir(name: string): string {
    return dataDir(this.dir, name);
  }

  /** What every node's agent shares (agents.ts). */
  private agents(): AgentsContext {
    const { dir, nodes, state, runAs, durable, sites, log } = this;
    return { dir, nodes, state, runAs, durable, sites, log };
  }
}
