// Clusters of one organization. Every function takes the organization's ID.
import { z } from 'zod';
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { runPrepared } from '../db/prepared';
import { DELETABLE_CLUSTER_STATUSES, type ClusterStatus, type ListedClusterStatus } from '~/lib/cluster-status';
import { listClustersStatements, type ClusterRow } from './clusters.sql';
import type { TimeCursor } from '../db/cursor';

/** A cluster as the API shows it. */
export const clusterView = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  project_id: z.string(),
  template: z.string(),
  node_count: z.number(),
  version: z.string(),
  status: z.string<ClusterStatus>(),
  status_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  ready_at: z.string().nullable(),
});
export type ClusterView = z.infer<typeof clusterView>;

/** A create or delete taken on (202): the cluster, and the run that does the work. */
export const acceptedClusterView = z.object({ cluster: clusterView, run_id: z.string() });

type Row = ClusterRow;

export const toClusterView = (c: Row): ClusterView => ({
  id: c.id,
  name: c.name,
  region: c.region,
  project_id: c.projectId,
  template: c.template,
  node_count: c.nodeCount,
  version: c.version,
  status: c.status,
  status_reason: c.statusReason,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
  ready_at: c.readyAt?.toISOString() ?? null,
});

export interface ClusterFilter {
  region: string;
  projectId?: string;
  status?: ListedClusterStatus;
  /** Position in the newest-first order (`created_at`, then `id`): pages never skip or repeat. */
  after?: TimeCursor;
  limit: number;
}

// The list is the hottest read there is: one statement (clusters.sql.ts), sent straight to
// node-postgres as a named prepared statement (Prisma's query interpreter and result mapping
// cost more than the query; each connection parses and plans it once).

/** One region's page (newest first), excluding deleted clusters; one row more than `limit` when there are more. */
export async function listClusters(db: Db, orgId: string, f: ClusterFilter): Promise<Row[]> {
  const mask = (f.projectId ? 1 : 0) | (f.status ? 2 : 0) | (f.after ? 4 : 0);
  const values: unknown[] = [orgId, f.region];
  if (f.projectId) values.push(f.projectId);
  if (f.status) values.push(f.status);
  if (f.after) values.push(f.after.at, f.after.id);
  values.push(f.limit + 1);
  return runPrepared(db, listClustersStatements[mask]!, ...values);
}

export async function getCluster(db: Db, orgId: string, id: string) {
  const row = await db.cluster.findFirst({ where: { id, orgId, status: { not: 'deleted' } } });
  return row ? toClusterView(row) : null;
}

/** The newest workflow run of a cluster (its create or delete), if any. */
export async function latestRunId(db: Db, orgId: string, clusterId: string): Promise<string | null> {
  const run = await db.workflowRun.findFirst({
    where: { orgId, clusterId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true },
  });
  return run?.id ?? null;
}

/** A cluster that is not deleted, in whatever state it is (null when not the organization's). */
export async function liveCluster(tx: Tx, orgId: string, id: string) {
  return tx.cluster.findFirst({ where: { id, orgId, status: { not: 'deleted' } } });
}

/** Moves a ready or failed cluster to `deleting`; null when it is in another state (or not ours). */
export async function markDeleting(tx: Tx, orgId: string, id: string) {
  const n = await tx.cluster.updateMany({
    where: { id, orgId, status: { in: [...DELETABLE_CLUSTER_STATUSES] } },
    data: { status: 'deleting', statusReason: null },
  });
  return n.count ? tx.cluster.findUniqueOrThrow({ where: { id } }) : null;
}
