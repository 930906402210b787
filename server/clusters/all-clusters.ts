// Atlas: clusters across every organization, newest first, filtered and keyset-paged; deleted
// clusters only when asked for by status.
import { z } from 'zod';
import { read } from '../db/access';
import { decodeTimeCursor, encodeTimeCursor } from '../db/cursor';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { isId } from '../ids';
import { CLUSTER_STATUSES, type ClusterStatus } from '~/lib/cluster-status';
import { regionFilter } from '../region/list-filter';
import { toClusterView } from './repository';

export interface AtlasClusterFilter {
  org?: string;
  region?: string;
  status?: ClusterStatus;
  template?: string;
  q?: string;
  limit: number;
  cursor?: string;
}

export const atlasClusterView = z.object({
  id: z.string(),
  name: z.string(),
  org: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  region: z.string(),
  project_id: z.string(),
  template: z.string(),
  node_count: z.number(),
  version: z.string(),
  status: z.enum(CLUSTER_STATUSES),
  status_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  ready_at: z.string().nullable(),
});
type AtlasClusterView = z.infer<typeof atlasClusterView>;

export async function listAllClusters(
  req: DataRequest,
  f: AtlasClusterFilter,
): Promise<{ data: AtlasClusterView[]; next_cursor: string | null }> {
  const after = f.cursor ? decodeTimeCursor(f.cursor) : undefined;
  if (f.cursor && !after) throw new AppError('invalid_request', 'cursor is not one this API returned');
  const q = f.q?.trim();
  const region = await regionFilter(f.region);
  const org = f.org?.trim();
  const orgSlug = org?.toLowerCase(); // when it is not an ID
  const rows = await read(req, async (db) => {
    // A slug is looked up first: filtered through the relation, the planner could not walk the
    // organization's (org_id, created_at) index in order (100,000 clusters: ~80 ms a page).
    const orgId =
      org && !isId(org, 'org')
        ? ((await db.organization.findUnique({ where: { slug: orgSlug }, select: { id: true } }))?.id ?? null)
        : org;
    if (orgId === null) return [];
    return db.cluster.findMany({
      where: {
        AND: [
          orgId ? { orgId } : {},
          region ? { region } : {},
          f.status ? { status: f.status } : { status: { not: 'deleted' } },
          f.template ? { template: f.template } : {},
          q ? (isId(q, 'cls') ? { id: q } : { name: { contains: q, mode: 'insensitive' } }) : {},
          after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {},
        ],
      },
      include: { organization: { select: { id: true, slug: true, name: true } } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: f.limit + 1,
    });
  });
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  return {
    data: page.map((c) => ({ ...toClusterView(c), org: c.organization })),
    next_cursor: rows.length > f.limit && last ? encodeTimeCursor({ at: last.createdAt, id: last.id }) : null,
  };
}
