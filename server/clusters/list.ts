// Reading clusters: one region's page, every allowed region at once (fan-out, per-region status),
// and one cluster by ID.
import type { OrgContext } from '../auth/identity';
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { AppError, isAppError } from '../errors';
import { isId } from '../ids';
import { regionRegistry } from '../region/registry';
import type { ListedClusterStatus } from '~/lib/cluster-status';
import { decodeTimeCursor, encodeTimeCursor } from '../db/cursor';
import { getCluster, latestRunId, listClusters, toClusterView } from './repository';

export interface ClusterListQuery {
  /** The regions to read; `fanOut` when the request named none (a region may fail alone). */
  regions: string[];
  fanOut: boolean;
  projectId?: string;
  status?: ListedClusterStatus;
  limit: number;
  cursor?: string;
}

export interface RegionReadStatus {
  status: 'ok' | 'error';
  latency_ms: number;
}

export async function listClustersInRegions(req: DataRequest, org: OrgContext, q: ClusterListQuery) {
  if (q.projectId !== undefined && !isId(q.projectId, 'prj')) {
    throw new AppError('invalid_request', 'project_id must be a project ID (prj_…)');
  }
  const after = q.cursor ? decodeTimeCursor(q.cursor) : undefined;
  if (q.cursor && !after) throw new AppError('invalid_request', 'cursor is not one this API returned');
  const filter = { projectId: q.projectId, status: q.status, after, limit: q.limit };
  const registry = await regionRegistry();
  const perRegion = await Promise.all(
    q.regions.map(async (region) => {
      const t = performance.now();
      if (q.fanOut && registry.get(region)?.status === 'down') {
        // An operator marked the region down: answer with the others rather than wait on it.
        return { region, rows: [], status: 'error' as const, latency: 0 };
      }
      try {
        const rows = await read(req, (db) => listClusters(db, org.id, { ...filter, region }), region);
        return { region, rows, status: 'ok' as const, latency: performance.now() - t };
      } catch (e) {
        if (!q.fanOut || !isAppError(e) || e.status !== 503) throw e;
        return { region, rows: [], status: 'error' as const, latency: performance.now() - t };
      }
    }),
  );
  if (perRegion.some((r) => r.status === 'error')) req.consistency.degraded ??= 'region_partial';
  const merged = perRegion
    .flatMap((r) => r.rows)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  const page = merged.slice(0, q.limit);
  const last = page.at(-1);
  return {
    data: page.map(toClusterView),
    next_cursor: merged.length > q.limit && last ? encodeTimeCursor({ at: last.createdAt, id: last.id }) : null,
    ...(q.fanOut
      ? {
          regions: Object.fromEntries(
            perRegion.map((r): [string, RegionReadStatus] => [
              r.region,
              { status: r.status, latency_ms: Math.round(r.latency * 100) / 100 },
            ]),
          ),
        }
      : {}),
  };
}

/** One live cluster with its newest workflow run; 404 when it is not the organization's. */
export async function clusterWithLatestRun(req: DataRequest, orgId: string, id: string) {
  const found = await read(req, async (db) => {
    const cluster = await getCluster(db, orgId, id);
    return cluster && { ...cluster, latest_run_id: await latestRunId(db, orgId, cluster.id) };
  });
  if (!found) throw new AppError('not_found', `no cluster ${id}`);
  return found;
}
