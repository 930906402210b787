// The database cluster as Atlas shows it: the HA manager's members, roles, timelines and lag, its
// promotions, and what this gateway's locator knows (docs/flows/failover.md).
import { z } from 'zod';
import { primaryHealth } from '../db/health';
import { primaryLocation } from '../db/primary-locator';
import { primaryUrl } from '../db/topology';
import { haConfigured, patroniCluster, patroniHistory } from './patroni';

export const databaseMemberView = z.object({
  name: z.string(),
  /** `leader`, `sync_standby` or `replica`, as the HA manager says. */
  role: z.string(),
  state: z.string(),
  timeline: z.number().nullable(),
  /** Bytes behind the leader; null when the HA manager cannot tell. */
  lag_bytes: z.number().nullable(),
  /** A failover candidate (the mothership's pair), or a region's replica that never leads. */
  candidate: z.boolean(),
  address: z.string().nullable(),
});

export const databaseClusterView = z.object({
  /** false: no HA manager configured (DATABASE_HA_API_URLS unset); only this gateway's view below. */
  managed: z.boolean(),
  /** The HA manager did not answer: `members` is empty, the rest still stands. */
  manager_error: z.string().nullable(),
  leader: z.string().nullable(),
  timeline: z.number().nullable(),
  members: z.array(databaseMemberView),
  promotions: z.array(
    z.object({
      timeline: z.number(),
      at: z.string().nullable(),
      new_leader: z.string().nullable(),
      reason: z.string(),
    }),
  ),
  /** What this gateway sees: the primary reachable, a failover under way, the host it writes to. */
  gateway: z.object({
    primary_reachable: z.boolean(),
    failover_under_way: z.boolean(),
    primary_host: z.string().nullable(),
    hosts: z.array(z.string()),
    moves: z.number(),
  }),
  /** A switchover can be asked for now: a leader and a running synchronous standby. */
  switchover_ready: z.boolean(),
});
export type DatabaseClusterView = z.infer<typeof databaseClusterView>;

const isCandidate = (tags: Record<string, unknown> | undefined) => !tags?.nofailover;

export async function databaseCluster(): Promise<DatabaseClusterView> {
  const p = primaryHealth();
  const at = primaryLocation(primaryUrl());
  const gateway = {
    primary_reachable: p.up,
    failover_under_way: !!at && (!p.up || at.searching),
    primary_host: at?.current ?? null,
    hosts: at?.hosts ?? [],
    moves: at?.moves ?? 0,
  };
  if (!haConfigured()) {
    return {
      managed: false,
      manager_error: null,
      leader: null,
      timeline: p.timeline ?? null,
      members: [],
      promotions: [],
      gateway,
      switchover_ready: false,
    };
  }
  const [cluster, history] = await Promise.allSettled([patroniCluster(), patroniHistory()]);
  const members =
    cluster.status === 'fulfilled'
      ? cluster.value.members.map((m) => ({
          name: m.name,
          role: m.role,
          state: m.state,
          timeline: m.timeline ?? null,
          lag_bytes: typeof m.lag === 'number' ? m.lag : m.role === 'leader' ? 0 : null,
          candidate: isCandidate(m.tags),
          address: m.host && m.port ? `${m.host}:${m.port}` : null,
        }))
      : [];
  const leader = members.find((m) => m.role === 'leader');
  return {
    managed: true,
    manager_error: cluster.status === 'rejected' ? (cluster.reason as Error).message : null,
    leader: leader?.name ?? null,
    timeline: leader?.timeline ?? p.timeline ?? null,
    members,
    promotions:
      history.status === 'fulfilled'
        ? history.value
            .slice(-20)
            .reverse()
            .map((h) => ({ timeline: h.timeline, at: h.at, new_leader: h.newLeader, reason: h.reason }))
        : [],
    gateway,
    switchover_ready:
      !!leader &&
      leader.state === 'running' &&
      members.some((m) => m.role === 'sync_standby' && ['running', 'streaming'].includes(m.state)),
  };
}

export interface AfterFailover {
  leader: string;
  timeline: number | null;
  /** When the HA manager promoted it (its history), if it says. */
  since: string | null;
}

/** How long a promotion without a synchronous standby since counts as the failover's aftermath. */
const AFTERMATH_MS = 60 * 60_000;
const CACHE_MS = 2_000;
const cache: { at: number; value: Promise<AfterFailover | undefined> } = { at: 0, value: Promise.resolve(undefined) };

/**
 * A promotion (within the hour) after which the cluster has no running synchronous standby yet:
 * an acknowledged write lives on one node, and the HA manager would not fail over again. Asked
 * of the HA manager at most every 2 s per process; undefined when none is configured.
 */
export function afterFailover(now = Date.now()): Promise<AfterFailover | undefined> {
  if (!haConfigured()) return Promise.resolve(undefined);
  if (now - cache.at < CACHE_MS) return cache.value;
  cache.at = now;
  cache.value = (async () => {
    const [{ members }, history] = await Promise.all([patroniCluster(), patroniHistory()]);
    const leader = members.find((m) => m.role === 'leader' && ['running', 'streaming'].includes(m.state));
    const synced = members.some((m) => m.role === 'sync_standby' && ['running', 'streaming'].includes(m.state));
    const newest = history.at(-1);
    if (!leader || synced || !newest) return undefined;
    const at = newest.at ? Date.parse(newest.at) : Number.NaN;
    if (Number.isFinite(at) && now - at > AFTERMATH_MS) return undefined;
    return { leader: leader.name, timeline: leader.timeline ?? newest.timeline, since: newest.at };
  })().catch(() => undefined);
  return cache.value;
}
