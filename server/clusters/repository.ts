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
// query interpreter and result mapping cost more than the query) as a named statement (parsed
// and planned once per connection). Each combination of filters is its own statement, so the
// plan PostgreSQL keeps for it never has to allow for a filter that is absent.
function listSql(projectId: boolean, status: boolean, after: boolean): string {
  const where = ['org_id = $1', 'region = $2', "status <> 'deleted'"];
  let n = 3;
  if (projectId) where.push(`project_id = $${n++}`);
  if (status) where.push(`status::text = $${n++}`);
  if (after) where.push(`(created_at, id) < ($${n++}, $${n++}::text)`);
  return `
  SELECT id, name, region, project_id AS "projectId", template, node_count AS "nodeCount", version, status,
         status_reason AS "statusReason", created_at AS "createdAt", updated_at AS "updatedAt", ready_at AS "readyAt"
  FROM clusters
  WHERE ${where.join(' AND ')}
  ORDER BY created_at DESC, id DESC
  LIMIT $${n}`;
}

const LIST_STATEMENTS = new Map<number, { name: string; text: string }>();

/** One region's page (newest first), excluding deleted clusters; one row more than `limit` when there are more. */
export async function listClusters(db: Db, orgId: string, f: ClusterFilter): Promise<Row[]> {
  const mask = (f.projectId ? 1 : 0) | (f.status ? 2 : 0) | (f.after ? 4 : 0);
  let statement = LIST_STATEMENTS.get(mask);
  if (!statement) {
    statement = { name: `meridian_list_clusters_${mask}`, text: listSql(!!f.projectId, !!f.status, !!f.after) };
    LIST_STATEMENTS.set(mask, statement);
  }
  const values: unknown[] = [orgId, f.region];
  if (f.projectId) values.push(f.projectId);
  if (f.status) values.push(f.status);
  if (f.after) values.push(f.after.createdAt, f.after.id);
  values.push(f.limit + 1);
  const { rows } = await poolOf(db).query<Row>({ ...statement, values });
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
