// Hand-written SQL of clusters: the list (the hottest read there is), capacity, the locks a
// server allocation takes, the row lock that serializes a cluster's kubeconfig issues, and the
// sweep of long-revoked kubeconfig credentials.
import type { ClusterStatus } from '~/lib/cluster-status';
import { command, statement, type RawRow } from '../db/sql';

export interface ClusterRow {
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
}

const date = (v: unknown) => (v instanceof Date ? v : new Date(v as string));

const clusterRow = (r: RawRow): ClusterRow => ({
  id: r.id as string,
  name: r.name as string,
  region: r.region as string,
  projectId: r.projectId as string,
  template: r.template as string,
  nodeCount: Number(r.nodeCount),
  version: r.version as string,
  status: r.status as ClusterStatus,
  statusReason: (r.statusReason as string | null) ?? null,
  createdAt: date(r.createdAt),
  updatedAt: date(r.updatedAt),
  readyAt: r.readyAt == null ? null : date(r.readyAt),
});

// Each combination of filters is its own statement, so the plan PostgreSQL keeps for it never
// has to allow for a filter that is absent. Parameters: org, region, then the filters present
// (project, status, cursor's created_at and id), then the limit.
function listSql(projectId: boolean, status: boolean, after: boolean): string {
  const where = ['org_id = $1', 'region = $2', "status <> 'deleted'"];
  let n = 3;
  if (projectId) where.push(`project_id = $${n++}`);
  // Compared as the enum (not as text), so the (org, region, status, created_at, id) index serves it in order.
  if (status) where.push(`status = $${n++}::"ClusterStatus"`);
  if (after) where.push(`(created_at, id) < ($${n++}, $${n++}::text)`);
  return `
  SELECT id, name, region, project_id AS "projectId", template, node_count AS "nodeCount", version, status,
         status_reason AS "statusReason", created_at AS "createdAt", updated_at AS "updatedAt", ready_at AS "readyAt"
  FROM clusters
  WHERE ${where.join(' AND ')}
  ORDER BY created_at DESC, id DESC
  LIMIT $${n}`;
}

/** The list statement for each filter mask (1: project, 2: status, 4: cursor). */
export const listClustersStatements = Array.from({ length: 8 }, (_, mask) =>
  statement<ClusterRow>(`clusters.list_${mask}`, listSql(!!(mask & 1), !!(mask & 2), !!(mask & 4)), clusterRow),
);

/** Free nodes per (region, gpu) among the regions: available servers less promised nodes. */
export const freeNodes = statement<
  { region: string; gpu: boolean; free: number },
  [regions: string[], gpuTemplates: string[]]
>(
  'clusters.free_nodes',
  `
    WITH available AS (
      SELECT region, gpu_count > 0 AS gpu, count(*) AS n
      FROM servers WHERE status = 'available' AND region = ANY($1::text[])
      GROUP BY 1, 2
    ), promised AS (
      SELECT c.region, c.template = ANY($2::text[]) AS gpu, sum(c.node_count) AS n
      FROM clusters c
      WHERE c.status IN ('pending', 'provisioning') AND c.region = ANY($1::text[])
        AND c.allocated_at IS NULL
      GROUP BY 1, 2
    )
    SELECT a.region, a.gpu, (a.n - COALESCE(p.n, 0))::bigint AS free
    FROM available a LEFT JOIN promised p ON p.region = a.region AND p.gpu = a.gpu`,
  (r) => ({ region: r.region as string, gpu: r.gpu === true, free: Number(r.free) }),
);

/** A live cluster of the organization, its row locked FOR UPDATE to the end of the transaction. */
export const liveClusterForUpdate = statement<
  { id: string; name: string; region: string; status: string },
  [id: string, orgId: string]
>(
  'clusters.live_cluster_for_update',
  `SELECT id, name, region, status::text AS status FROM "public"."clusters"
    WHERE id = $1::text AND org_id = $2::text AND status <> 'deleted' FOR UPDATE`,
  (r) => ({ id: r.id as string, name: r.name as string, region: r.region as string, status: r.status as string }),
);

/** Serializes a region's allocations: held to the end of the transaction. */
export const lockRegionAllocation = command<[region: string]>(
  'clusters.lock_region_allocation',
  "SELECT pg_advisory_xact_lock(hashtextextended('allocate:' || $1::text, 0))",
);

/** A region's available servers of one kind (GPU or not), locked FOR UPDATE, by hostname. */
export const freeServersForUpdate = statement<{ id: string; zone: string }, [region: string, gpu: boolean]>(
  'clusters.free_servers_for_update',
  `SELECT id, zone FROM servers
   WHERE region = $1::text AND status = 'available' AND (gpu_count > 0) = $2::boolean
   ORDER BY hostname
   FOR UPDATE`,
  (r) => ({ id: r.id as string, zone: r.zone as string }),
);

/**
 * Deletes kubeconfig credentials revoked more than $1 days ago, except in an organization being
 * moved (its export and verify must read the same rows); the organizations held FOR SHARE, so a
 * move's switch to read-only waits for the delete to commit.
 */
export const deleteRevokedCredentials = command<[retentionDays: number]>(
  'clusters.delete_revoked_kubeconfig_credentials',
  `WITH live AS (
    SELECT o.id FROM organizations o
     WHERE o.status <> 'moving'
       AND o.id IN (SELECT org_id FROM kubeconfig_credentials WHERE revoked_at < now() - make_interval(days => $1::int))
     FOR SHARE OF o
  )
  DELETE FROM kubeconfig_credentials c USING live
    WHERE c.org_id = live.id AND c.revoked_at < now() - make_interval(days => $1::int)`,
);
