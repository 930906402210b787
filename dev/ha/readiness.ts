// When an HA topology is ready: every node a member, running and streaming from the one leader,
// the sync standby chosen; and every node caught up with what the leader wrote.
import { adminOn, caughtUpNodes, streamingNodes, walPosition } from './leader-sql';
import type { ClusterMember, ClusterView } from './patroni-api';
import type { HaNode } from './patroni-config';

export interface ReadinessProbe {
  nodes: HaNode[];
  adminPassword: string;
  pgPort(name: string): number;
  cluster(): Promise<ClusterView>;
  waitFor(what: string, timeoutMs: number, ok: () => Promise<boolean>): Promise<void>;
}

/** As Patroni sees it: the leader and every node running, a sync standby, every lag reported. */
function ready(nodes: HaNode[], members: ClusterMember[]): boolean {
  const leader = members.find((m) => m.role === 'leader');
  const byName = new Map(members.map((m) => [m.name, m]));
  return (
    leader?.state === 'running' &&
    nodes.every((n) => byName.get(n.name)?.state === 'running') &&
    members.some((m) => m.role === 'sync_standby') &&
    members.every((m) => m === leader || typeof m.lag === 'number')
  );
}

/** Every node a member, running, streaming from the one leader (as the leader's
 * pg_stat_replication says: Patroni reports a lag before the stream is up), the sync standby chosen. */
export async function waitReady(t: ReadinessProbe, timeoutMs: number): Promise<void> {
  await t.waitFor('every node to run and stream', timeoutMs, async () => {
    const view = await t.cluster().catch(() => undefined);
    if (!view || !ready(t.nodes, view.members)) return false;
    const leader = view.members.find((m) => m.role === 'leader')!.name;
    const streaming = await streamingNodes(adminOn(t.pgPort(leader), t.adminPassword)).catch((): string[] => []);
    return t.nodes.every((n) => n.name === leader || streaming.includes(n.name));
  });
}

/** Every node has replayed all the leader wrote so far (the database and roles exist everywhere:
 * over a WAN the regions' replicas replay the CREATE DATABASE a link's latency later). */
export async function waitCaughtUp(t: ReadinessProbe, leader: string, timeoutMs: number): Promise<void> {
  const admin = adminOn(t.pgPort(leader), t.adminPassword);
  const lsn = await walPosition(admin);
  await t.waitFor(`every node to replay the leader's WAL to ${lsn}`, timeoutMs, async () => {
    const done = await caughtUpNodes(admin, lsn).catch((): string[] => []);
    return t.nodes.every((n) => n.name === leader || done.includes(n.name));
  });
}
