// Organizations as operators see them (regions, members, clusters by status, active API keys):
// a page of them, searched and filtered by region, and one in detail.
import { z } from 'zod';
import { GLOBAL_KEY_REGION } from '../api-keys/format';
import { clusterCounts, clusterCountsView } from '../clusters/counts';
import { read, type Tx } from '../db/access';
import type { Db } from '../db/client';
import { decodeCursor, encodeCursor } from '../db/cursor';
import type { DataRequest } from '../db/request-state';
import { run } from '../db/sql';
import { AppError } from '../errors';
import { isId } from '../ids';
import { regionFilter } from '../region/list-filter';
import { selectOrganizations, type OrganizationRow } from './operator.sql';

export const organizationSummaryView = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  status: z.enum(['active', 'moving', 'suspended', 'offboarding']),
  allowed_regions: z.array(z.string()),
  default_region: z.string().nullable(),
  members: z.number(),
  active_api_keys: z.number(),
  clusters: clusterCountsView,
  /** Offboarding: since when, and when its data is purged (cancellable until then). */
  offboarding_started_at: z.string().nullable(),
  purge_after: z.string().nullable(),
  created_at: z.string(),
});
type OrganizationSummary = z.infer<typeof organizationSummaryView>;

export const organizationDetailView = organizationSummaryView.extend({
  projects: z.number(),
  /** Live (not deleted) clusters per region: what a region removal would strand. */
  clusters_by_region: z.record(z.string(), z.number()),
  /** Active API keys per region (`global` for organization-wide keys). */
  api_keys_by_region: z.record(z.string(), z.number()),
  updated_at: z.string(),
});
export type OrganizationDetail = z.infer<typeof organizationDetailView>;

export interface OrganizationFilter {
  q?: string;
  region?: string;
  limit: number;
  cursor?: string;
}

const toSummary = (r: OrganizationRow): OrganizationSummary => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  status: r.status,
  allowed_regions: r.allowed_regions,
  default_region: r.default_region,
  members: r.members,
  active_api_keys: r.active_api_keys,
  clusters: clusterCounts(r.clusters),
  offboarding_started_at: r.offboarding_started_at?.toISOString() ?? null,
  purge_after: r.purge_after?.toISOString() ?? null,
  created_at: r.created_at.toISOString(),
});

/** `%` and `_` typed in a search box are letters, not wildcards. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The slug a page starts after. */
function afterSlug(raw: string): string {
  const [slug] = decodeCursor(raw, 1) ?? [];
  if (slug === undefined || !/^[a-z0-9][a-z0-9-]{0,62}$/.test(slug)) {
    throw new AppError('invalid_request', 'cursor is not one this API returned');
  }
  return slug;
}

export async function listOrganizations(
  req: DataRequest,
  f: OrganizationFilter,
): Promise<{ data: OrganizationSummary[]; next_cursor: string | null }> {
  const q = f.q?.trim() || null;
  const region = (await regionFilter(f.region)) ?? null;
  const after = f.cursor ? afterSlug(f.cursor) : null;
  const rows = await read(req, (db) =>
    run(db, selectOrganizations, null, q, q && likePattern(q), region, after, f.limit + 1),
  );
  const page = rows.slice(0, f.limit);
  return {
    data: page.map(toSummary),
    next_cursor: rows.length > f.limit ? encodeCursor([page.at(-1)!.slug]) : null,
  };
}

/** One organization in detail, or null. */
export async function detailOf(db: Db | Tx, id: string): Promise<OrganizationDetail | null> {
  const [row] = await run(db, selectOrganizations, id, null, null, null, null, 1);
  if (!row) return null;
  const [clustersByRegion, keysByRegion, projects] = await Promise.all([
    db.cluster.groupBy({ by: ['region'], where: { orgId: id, status: { not: 'deleted' } }, _count: true }),
    db.apiKey.groupBy({ by: ['region'], where: { orgId: id, revokedAt: null }, _count: true }),
    db.project.count({ where: { orgId: id, deletedAt: null } }),
  ]);
  return {
    ...toSummary(row),
    projects,
    clusters_by_region: Object.fromEntries(clustersByRegion.map((g) => [g.region, g._count])),
    api_keys_by_region: Object.fromEntries(keysByRegion.map((g) => [g.region ?? GLOBAL_KEY_REGION, g._count])),
    updated_at: row.updated_at.toISOString(),
  };
}

export function organizationNotFound(id: string): AppError {
  return new AppError('not_found', `no organization ${id}`);
}

export async function organizationDetail(req: DataRequest, id: string): Promise<OrganizationDetail> {
  if (!isId(id, 'org')) throw organizationNotFound(id);
  const found = await read(req, (db) => detailOf(db, id));
  if (!found) throw organizationNotFound(id);
  return found;
}
