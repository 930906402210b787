// One region in detail for its Atlas page: the live overview plus capacity and clusters by status,
// null (with the reason) when no database answers (docs/atlas.md).
import { clusterCounts } from '../clusters/counts';
import { TEMPLATES } from '../clusters/templates';
import type { Db } from '../db/client';
import type { DataRequest } from '../db/request-state';
import { sharedRead } from '../db/shared-reads';
import { run } from '../db/sql';
import { isAppError } from '../errors';
import { SERVER_STATUSES } from '../fleet/fleet.sql';
import { clustersByStatus, promisedNodes, serversByStatus } from './capacity.sql';
import { regionOverview } from './overview';
import type { RegionCapacity, RegionDetail } from './region-views';

const GPU_TEMPLATES = TEMPLATES.filter((t) => t.gpu).map((t) => t.id);

async function regionCounts(db: Db, region: string) {
  const [servers, promised, clusters] = await Promise.all([
    run(db, serversByStatus, region),
    run(db, promisedNodes, region, GPU_TEMPLATES),
    run(db, clustersByStatus, region),
  ]);
  const byStatus = { total: 0 } as RegionCapacity['servers'];
  for (const s of SERVER_STATUSES) byStatus[s] = 0;
  const kind = (gpu: boolean): RegionCapacity['cpu'] => {
    const mine = servers.filter((s) => s.gpu === gpu);
    const total = mine.reduce((a, s) => a + s.n, 0);
    const available = mine.filter((s) => s.status === 'available').reduce((a, s) => a + s.n, 0);
    const p = promised.find((x) => x.gpu === gpu)?.n ?? 0;
    return { total, available, promised: p, free: Math.max(0, available - p) };
  };
  for (const s of servers) {
    byStatus[s.status as keyof typeof byStatus] += s.n;
    byStatus.total += s.n;
  }
  return {
    capacity: { servers: byStatus, cpu: kind(false), gpu: kind(true) },
    clusters: clusterCounts(Object.fromEntries(clusters.map((c) => [c.status, c.n]))),
  };
}

/** One region (400 invalid_region for a malformed code, 404 for an unknown one) with its counts. */
export async function regionDetail(req: DataRequest, code: string): Promise<RegionDetail> {
  const overview = await regionOverview(code);
  try {
    // O(servers + clusters) of the region: shared by every operator for a few seconds.
    const counts = await sharedRead(req, `region-counts:${code}`, (db) => regionCounts(db, code), code);
    return { ...overview, ...counts, counts_error: null };
  } catch (e) {
    if (!isAppError(e) || e.status !== 503) throw e;
    return { ...overview, capacity: null, clusters: null, counts_error: e.message };
  }
}
