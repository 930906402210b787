// Atlas: clusters across every organization, newest first, filtered by organization (ID or slug),
// region, status, template and a search on name or ID, a page at a time. Each row names its
// organization's slug. Deleted clusters are listed only when asked for by status.
import { decodeCursor, encodeCursor } from '../clusters/repository';
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { isId } from '../ids';
import type { ClusterStatus } from '~/lib/cluster-status';
import { regionFilter } from './region-filter';

export interface AtlasClusterFilter {
  org?: string;
  region?: string;
  status?: ClusterStatus;
  template?: string;
  q?: string;
  limit: number;
  cursor?: string;
}

export interface AtlasClusterView {
  id: string;
  name: string;
  org: { id: string; slug: string; name: string };
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

export async function listAllClusters(
  req: DataRequest,
  f: AtlasClusterFilter,
): Promise<{ data: AtlasClusterView[]; next_cursor: string | null }> {
  const after = f.cursor ? decodeCursor(f.cursor) : undefined;
  if (f.cursor && !after) throw new AppError('invalid_request', 'cursor is not one this API returned');
  const q = f.q?.trim();
  const region = await regionFilter(f.region);
  const org = f.org?.trim();
  const orgSlug = org?.toLowerCase(); // when it is not an ID
  const rows = await read(req, (db) =>
    db.cluster.findMany({
      where: {
        AND: [
          org ? (isId(org, 'org') ? { orgId: org } : { organization: { slug: orgSlug } }) : {},
          region ? { region } : {},
          f.status ? { status: f.status } : { status: { not: 'deleted' } },
          f.template ? { template: f.template } : {},
          q ? (isId(q, 'cls') ? { id: q } : { name: { contains: q, mode: 'insensitive' } }) : {},
          after
            ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
            : {},
        ],
      },
      include: { organization: { select: { id: true, slug: true, name: true } } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: f.limit + 1,
    }),
  );
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  return {
    data: page.map((c) => ({
      id: c.id,
      name: c.name,
      org: c.organization,
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
    })),
    next_cursor: rows.length > f.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}
