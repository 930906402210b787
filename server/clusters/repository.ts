// Clusters of one organization. Every function takes the organization's ID.
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { DELETABLE_CLUSTER_STATUSES, type ClusterStatus, type ListedClusterStatus } from '~/lib/cluster-status';
import { newId } from '../ids';

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

/** One region's page (newest first), excluding deleted clusters. */
export async function listClusters(db: Db, orgId: string, f: ClusterFilter) {
  const rows = await db.cluster.findMany({
    where: {
      orgId,
      region: f.region,
      ...(f.projectId ? { projectId: f.projectId } : {}),
      ...(f.status ? { status: f.status } : { status: { not: 'deleted' } }),
      ...(f.after
        ? {
            OR: [{ createdAt: { lt: f.after.createdAt } }, { createdAt: f.after.createdAt, id: { lt: f.after.id } }],
          }
        : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: f.limit + 1,
  });
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

export interface NewCluster {
  orgId: string;
  projectId: string;
  region: string;
  name: string;
  template: string;
  nodeCount: number;
  version: string;
}

/** Serializes creates of one name in one organization (no duplicate names among live clusters). */
export async function lockClusterName(tx: Tx, orgId: string, name: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`cluster:${orgId}:${name}`}, 0))`;
}

/**
 * Whether `region` is still one of the organization's regions, holding its row (FOR KEY SHARE) to
 * the end of the transaction: an operator's removal of the region (server/atlas/organizations.ts)
 * then waits for this create and sees its cluster, or this create sees the region gone.
 */
export async function holdAllowedRegion(tx: Tx, orgId: string, region: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM organization_regions WHERE org_id = ${orgId} AND region = ${region} FOR KEY SHARE`;
  return rows.length > 0;
}

export async function liveClusterNamed(tx: Tx, orgId: string, name: string) {
  return tx.cluster.findFirst({
    where: { orgId, name, status: { not: 'deleted' } },
    select: { id: true, region: true },
  });
}

export async function insertCluster(tx: Tx, c: NewCluster) {
  return tx.cluster.create({ data: { id: newId('cls'), status: 'pending', ...c } });
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
