// Clusters of one organization. Every function takes the organization's ID.
import type { Tx } from '../db/access';
import { poolOf, type Db } from '../db/client';
import { DELETABLE_CLUSTER_STATUSES, type ClusterStatus, type ListedClusterStatus } from '~/lib/cluster-status';

export interface ClusterView {
  id: string;
  name: string;
  region: string;
  project_id: string;
  template: string;
  node_count: number;
  version: string;
  status: ClusterStatus;
  status_reason: string | null;
  created_at: string;
  updated_at: string;
  ready_at: string | null;
}

type Row = {
  id: string;
  name: string;
  region: string;
  projectId: string;
  template: string;
  nodeCount: number;
  version: string;
  status: ClusterStatus;
  statusReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  readyAt: Date | null;
};

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

/** Position in the newest-first order: `created_at` then `id`, so pages never skip or repeat. */
export interface ClusterCursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(c: ClusterCursor): string {
  return Buffer.from(`${c.createdAt.toISOString()}|${c.id}`).toString('base64url');
}

export function decodeCursor(raw: string): ClusterCursor | undefined {
  const [at, id] = Buffer.from(raw, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  return id && !Number.isNaN(createdAt.getTime()) ? { createdAt, id } : undefined;
}

export interface ClusterFilter {
  region: string;
  projectId?: string;
  status?: ListedClusterStatus;
  after?: ClusterCursor;
  limit: number;
}

// The list is the hottest read there is: one statement, sent straight to node-postgres (Prisma's
// query interpreter and result mapping cost more than the query), served by the clusters'
// (org_id, created_at DESC, id) index.
const LIST_SQL = `
  SELECT id, name, region, project_id AS "projectId", template, node_count AS "nodeCount", version, status,
         status_reason AS "statusReason", created_at AS "createdAt", updated_at AS "updatedAt", ready_at AS "readyAt"
  FROM clusters
  WHERE org_id = $1 AND region = $2
    AND ($3::text IS NULL OR project_id = $3)
    AND (CASE WHEN $4::text IS NULL THEN status <> 'deleted' ELSE status::text = $4 END)
    AND ($5::timestamptz IS NULL OR (created_at, id) < ($5, $6::text))
  ORDER BY created_at DESC, id DESC
  LIMIT $7`;

/** One region's page (newest first), excluding deleted clusters; one row more than `limit` when there are more. */
export async function listClusters(db: Db, orgId: string, f: ClusterFilter): Promise<Row[]> {
  const { rows } = await poolOf(db).query<Row>(LIST_SQL, [
    orgId,
    f.region,
    f.projectId ?? null,
    f.status ?? null,
    f.after?.createdAt ?? null,
    f.after?.id ?? null,
    f.limit + 1,
  ]);
  return rows;
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
