// One HA node's Patroni agent: its folder, configuration, start, stop, kill, PIDs and how it
// stands (topology.ts runs them all). It runs PostgreSQL, as the database OS user if there is one.
import fs from 'node:fs';
import path from 'node:path';
import type { RunAs } from '../embedded-pg/os-user';
import { runningPid } from '../embedded-pg/programs';
import { nodesFile, type NodesFile } from './nodes-file';
import type { ClusterView } from './patroni-api';
import { patroniConfig, type HaNode } from './patroni-config';
import { findProgram } from './prerequisites';
import { childrenOf, livePid, signal, startDaemon, waitForExit } from './processes';
import type { HaState } from './state';

/** How a site's nodes reach the mothership's over a WAN: from an address of their own. */
export interface HaWanSites {
  /** The site's loopback address, set as PGHOSTADDR for its agent (so its postmaster, pg_basebackup,
   * pg_rewind); undefined: the mothership, dialling 127.0.0.1 direct. */
  address(site: string): string | undefined;
  /** Makes `address(site)`:`port` reach 127.0.0.1:`port` over the site's link to the mothership. */
  expose(site: string, port: number): Promise<void>;
}

/** What every agent of one topology shares. */
export interface AgentsContext {
  dir: string;
  nodes: HaNode[];
  state: HaState;
  runAs: RunAs | undefined;
  durable: boolean;
  sites: HaWanSites | undefined;
  log: (line: string) => void;
}

export const nodePath = (dir: string, name: string, ...parts: string[]) => path.join(dir, 'nodes', name, ...parts);
export const dataDir = (dir: string, name: string) => nodePath(dir, name, 'data');
export const apiUrl = (state: HaState, name: string) => `http://127.0.0.1:${state.nodes[name]!.apiPort}`;
export const postmasterPid = (dir: string, name: string) => runningPid(dataDir(dir, name));
export const agentPid = (dir: string, name: string) =>
  livePid(nodePath(dir, name, 'patroni.pid'), nodePath(dir, name, 'patroni.yml'));

/** Hands folders and files (not their contents) to the database OS user, when there is one. */
export function own(runAs: RunAs | undefined, ...paths: string[]): void {
  if (runAs) for (const p of paths) fs.chownSync(p, runAs.uid, runAs.gid);
}

/** Unless its agent runs: the configuration (rewritten: ports may have moved), then the agent. */
export async function startAgent(ctx: AgentsContext, n: HaNode): Promise<void> {
  const { dir, state } = ctx;
  if (agentPid(dir, n.name)) return;
  // Over a WAN, a region's node dials the mothership's nodes (wherever the leader is) from its
  // own address, where the link's relays listen; it listens there too, for its own agent.
  const address = ctx.sites?.address(n.site);
  if (address) {
    for (const c of ctx.nodes.filter((x) => x.candidate)) await ctx.sites!.expose(n.site, state.nodes[c.name]!.pgPort);
  }
  const nodeDir = nodePath(dir, n.name);
  fs.mkdirSync(path.join(nodeDir, 'log'), { recursive: true, mode: 0o700 });
  const { pgPort, apiPort } = state.nodes[n.name]!;
  const config = patroniConfig({
    node: n,
    pgPort,
    apiPort,
    etcdPort: state.etcd.clientPort,
    dataDir: dataDir(dir, n.name),
    nodeDir,
    durable: ctx.durable,
    address,
    passwords: {
      admin: state.adminPassword,
      replication: state.replicationPassword,
      restApi: state.restApiPassword,
    },
  });
  const configFile = nodePath(dir, n.name, 'patroni.yml');
  fs.writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  fs.chmodSync(nodeDir, 0o700);
  // Not the data folder: PostgreSQL made it, as the database user.
  own(ctx.runAs, nodeDir, path.join(nodeDir, 'log'), configFile);
  startDaemon({
    program: findProgram('patroni') ?? 'patroni',
    args: [configFile],
    cwd: nodeDir,
    logFile: path.join(dir, 'logs', `${n.name}.out`),
    pidFile: nodePath(dir, n.name, 'patroni.pid'),
    runAs: ctx.runAs,
    env: address ? { PGHOSTADDR: address } : undefined,
  });
  ctx.log(`patroni ${n.name} started (PostgreSQL on 127.0.0.1:${pgPort}, REST API ${apiUrl(state, n.name)})`);
}

/** SIGTERM to the agent (it stops PostgreSQL, fast); SIGKILL after 60 s. A postmaster left
 * without its agent is stopped too. */
export async function stopAgent(ctx: AgentsContext, name: string): Promise<void> {
  const agent = agentPid(ctx.dir, name);
  if (agent) {
    signal(agent, 'SIGTERM');
    if (!(await waitForExit(agent, 60_000))) {
      ctx.log(`the agent of ${name} did not stop within 60 s: killing it`);
      signal(agent, 'SIGKILL');
    }
  }
  const postmaster = postmasterPid(ctx.dir, name);
  if (postmaster) {
    signal(postmaster, 'SIGINT');
    if (!(await waitForExit(postmaster, 30_000))) signal(postmaster, 'SIGKILL');
  }
}

/** A lost machine: SIGKILL the node's agent, its postmaster and the postmaster's children at once. */
export async function killNode(ctx: AgentsContext, name: string): Promise<void> {
  const agent = agentPid(ctx.dir, name);
  const postmaster = postmasterPid(ctx.dir, name);
  const pids = [
    ...(agent ? [agent, ...childrenOf(agent)] : []),
    ...(postmaster ? [postmaster, ...childrenOf(postmaster)] : []),
  ];
  for (const pid of pids) signal(pid, 'SIGKILL');
  await Promise.all(pids.map((pid) => waitForExit(pid, 10_000)));
  ctx.log(`killed node ${name} (agent ${agent ?? '-'}, postmaster ${postmaster ?? '-'})`);
}

/** Only the postmaster: its agent lives, notices, and restarts or replaces it. */
export async function killPostmaster(ctx: AgentsContext, name: string): Promise<void> {
  const pid = postmasterPid(ctx.dir, name);
  if (!pid) throw new Error(`node ${name} has no running postmaster`);
  signal(pid, 'SIGKILL');
  await waitForExit(pid, 10_000);
  ctx.log(`killed the postmaster of ${name} (${pid})`);
}

/** Every node as Patroni (`view`: roles; each agent: its timeline) and the machine (ports, PIDs) see it. */
export async function describeNodes(
  ctx: AgentsContext,
  view: ClusterView,
  etcd: NodesFile['etcd'],
): Promise<NodesFile> {
  const timelines = new Map<string, number>();
  await Promise.all(
    ctx.nodes.map(async (n) => {
      try {
        const res = await fetch(`${apiUrl(ctx.state, n.name)}/patroni`, { signal: AbortSignal.timeout(1_000) });
        const tl = ((await res.json()) as { timeline?: number }).timeline;
        if (tl) timelines.set(n.name, tl);
      } catch {
        /* agent down */
      }
    }),
  );
  return nodesFile(
    ctx.nodes,
    view,
    (name) => ({
      pgPort: ctx.state.nodes[name]!.pgPort,
      restApi: apiUrl(ctx.state, name),
      postmaster: postmasterPid(ctx.dir, name),
      agent: agentPid(ctx.dir, name),
      timeline: timelines.get(name),
    }),
    etcd,
  );
}
