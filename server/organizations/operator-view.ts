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
import { sharedRead } from '../db/shared-reads';
import { clusterTallies, selectOrganizations, type ClusterTallyRow, type OrganizationRow } from './operator.sql';

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

/** Tallies summed by one of their keys (the organization's clusters by status, or by region). */
function sumBy(tallies: ClusterTallyRow[], key: 'region' | 'status'): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of tallies) out[t[key]] = (out[t[key]] ?? 0) + t.n;
  return out;
}

/**
 * The organizations' cluster tallies. Counting a big organization's clusters is O(its clusters)
 * (100,000: ~100 ms): shared by every operator for a few seconds, never older than the caller's
 * own writes (docs/flows/reads-and-writes.md#shared-aggregates).
 */
async function talliesOf(req: DataRequest, ids: string[]): Promise<Map<string, ClusterTallyRow[]>> {
  const out = new Map<string, ClusterTallyRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await sharedRead(req, `org-clusters:${ids.join(',')}`, (db) => run(db, clusterTallies, ids));
  for (const t of rows) out.get(t.org_id)?.push(t);
  return out;
}

const toSummary = (r: OrganizationRow, tallies: ClusterTallyRow[]): OrganizationSummary => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  status: r.status,
  allowed_regions: r.allowed_regions,
  default_region: r.default_region,
  members: r.members,
  active_api_keys: r.active_api_keys,
  clusters: clusterCounts(sumBy(tallies, 'status')),
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
  const tallies = await talliesOf(
    req,
    page.map((o) => o.id),
  );
  return {
    data: page.map((o) => toSummary(o, tallies.get(o.id)!)),
    next_cursor: rows.length > f.limit ? encodeCursor([page.at(-1)!.slug]) : null,
  };
}

/**
 * One organization in detail, or null. Its clusters by region and status are `tallies` when the
 * caller has them (a shared read), else counted here.
 */
export async function detailOf(
  db: Db | Tx,
  id: string,
  tallies?: ClusterTallyRow[],
): Promise<OrganizationDetail | null> {
  const [row] = await run(db, selectOrganizations, id, null, null, null, null, 1);
  if (!row) return null;
  const [clusters, keysByRegion, projects] = await Promise.all([
    tallies ?? run(db, clusterTallies, [id]),
    db.apiKey.groupBy({ by: ['region'], where: { orgId: id, revokedAt: null }, _count: true }),
    db.project.count({ where: { orgId: id, deletedAt: null } }),
  ]);
  return {
    ...toSummary(row, clusters),
    projects,
    clusters_by_region: sumBy(clusters, 'region'),
    api_keys_by_region: Object.fromEntries(keysByRegion.map((g) => [g.region ?? GLOBAL_KEY_REGION, g._count])),
    updated_at: row.updated_at.toISOString(),
  };
}

export function organizationNotFound(id: string): AppError {
  return new AppError('not_found', `no organization ${id}`);
}

/** 404 unless the organization exists (an ID of the right shape that names none is not found). */
export async function assertOrganization(req: DataRequest, id: string): Promise<void> {
  if (!isId(id, 'org')) throw organizationNotFound(id);
  const found = await read(req, (db) => db.organization.findUnique({ where: { id }, select: { id: true } }));
  if (!found) throw organizationNotFound(id);
}

export async function organizationDetail(req: DataRequest, id: string): Promise<OrganizationDetail> {
  // Known first: an unknown ID costs no count and takes no place among the shared answers.
  await assertOrganization(req, id);
  const tallies = (await talliesOf(req, [id])).get(id);
  const found = await read(req, (db) => detailOf(db, id, tallies));
  if (!found) throw organizationNotFound(id);
  return found;
}
