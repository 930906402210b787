// nodes.json in an HA topology's folder: every database node as Patroni and the machine see it
// (role, ports, PIDs, timeline), for people and scripts that drill failovers.
import fs from 'node:fs';
import path from 'node:path';
import type { ClusterView } from './patroni-api';
import type { HaNode } from './patroni-config';

export interface NodeRecord {
  name: string;
  site: string;
  /** As Patroni reports it: `leader`, `sync_standby`, `replica`; null when the node is not a member now. */
  role: string | null;
  state: string | null;
  pgPort: number;
  restApi: string;
  pids: { postmaster: number | null; agent: number | null };
  timeline: number | null;
}

export interface NodesFile {
  writtenAt: string;
  leader: string | null;
  etcd: { url: string; pid: number | null };
  nodes: NodeRecord[];
}

/** What each node looks like to the machine (ports, PIDs, its own agent's view of its timeline). */
export interface NodeFacts {
  pgPort: number;
  restApi: string;
  postmaster?: number;
  agent?: number;
  timeline?: number;
}

export function nodesFile(
  nodes: HaNode[],
  view: ClusterView,
  facts: (name: string) => NodeFacts,
  etcd: NodesFile['etcd'],
): NodesFile {
  const records = nodes.map((n): NodeRecord => {
    const m = view.members.find((x) => x.name === n.name);
    const f = facts(n.name);
    return {
      name: n.name,
      site: n.site,
      role: m?.role ?? null,
      state: m?.state ?? null,
      pgPort: f.pgPort,
      restApi: f.restApi,
      pids: { postmaster: f.postmaster ?? null, agent: f.agent ?? null },
      timeline: m?.timeline ?? f.timeline ?? null,
    };
  });
  return {
    writtenAt: new Date().toISOString(),
    leader: view.members.find((m) => m.role === 'leader')?.name ?? null,
    etcd,
    nodes: records,
  };
}

/** What a change of topology changes (not the time, not the lag). */
export const topologySignature = (f: NodesFile) => JSON.stringify({ ...f, writtenAt: undefined });

export function saveNodesFile(dir: string, f: NodesFile): void {
  const file = path.join(dir, 'nodes.json');
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(f, null, 2) + '\n', { mode: 0o644 });
  fs.renameSync(`${file}.tmp`, file);
}
