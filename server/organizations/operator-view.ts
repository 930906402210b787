// Atlas: every organization as operators see it (regions, members, clusters by status, active API
// keys), in one aggregate query per page, and the operator's change of an organization's allowed
// and default regions: validated, audited with before → after in the same transaction, and refused
// (409) while a region to remove still holds the organization's live clusters. Gateways drop their
// cached identities of the organization at commit (organization_regions' and organizations'
// NOTIFY triggers), so a key of a removed region is refused by its next request.
import { GLOBAL_KEY_REGION } from '../api-keys/format';
import { recordAudit } from '../audit/audit';
import { changed as identityChanged } from '../auth/identity-cache';
import { read, write, type Tx } from '../db/access';
import type { Db } from '../db/client';
import { readPrimary } from '../db/primary-reads';
import { Prisma } from '../db/generated/client';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { isId } from '../ids';
import { regionRegistry } from '../region/registry';
import { isRegionCode } from '../region/code';
import { formatVersion } from '../routing/policy';
import { builtInDefault } from '../routing/policy';
import { publishInTx } from '../routing/publish';
import { regionFilter } from './region-filter';
import { LISTED_CLUSTER_STATUSES, type ListedClusterStatus } from '~/lib/cluster-status';

export const ORG_REGIONS_AUDIT_ACTION = 'operator.organization.set_regions' as const;

export type ClusterCounts = Record<ListedClusterStatus, number> & { total: number };

export interface OrganizationSummary {
  id: string;
  slug: string;
  name: string;
  status: 'active' | 'moving' | 'suspended';
  allowed_regions: string[];
  default_region: string | null;
  members: number;
  active_api_keys: number;
  clusters: ClusterCounts;
  created_at: string;
}

export interface OrganizationDetail extends OrganizationSummary {
  projects: number;
  /** Live (not deleted) clusters per region: what a region removal would strand. */
  clusters_by_region: Record<string, number>;
  /** Active API keys per region (`global` for organization-wide keys). */
  api_keys_by_region: Record<string, number>;
  updated_at: string;
}

export interface OrganizationFilter {
  q?: string;
  region?: string;
  limit: number;
  cursor?: string;
}

type Row = {
  id: string;
  slug: string;
  name: string;
  status: OrganizationSummary['status'];
  default_region: string | null;
  created_at: Date;
  updated_at: Date;
  allowed_regions: string[];
  members: bigint;
  active_api_keys: bigint;
  clusters: Record<string, number> | null;
};

export function clusterCounts(byStatus: Record<string, number> | null | undefined): ClusterCounts {
  const out = { total: 0 } as ClusterCounts;
  for (const s of LISTED_CLUSTER_STATUSES) {
    out[s] = Number(byStatus?.[s] ?? 0);
    out.total += out[s];
  }
  return out;
}

const toSummary = (r: Row): OrganizationSummary => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  status: r.status,
  allowed_regions: r.allowed_regions,
  default_region: r.default_region,
  members: Number(r.members),
  active_api_keys: Number(r.active_api_keys),
  clusters: clusterCounts(r.clusters),
  created_at: r.created_at.toISOString(),
});

/** `%` and `_` typed in a search box are letters, not wildcards. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const encodeCursor = (slug: string) => Buffer.from(slug).toString('base64url');
function decodeCursor(raw: string): string {
  const slug = Buffer.from(raw, 'base64url').toString('utf8');
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(slug))
    throw new AppError('invalid_request', 'cursor is not one this API returned');
  return slug;
}

/**
 * Organizations with their aggregates, one statement: each count is a LATERAL subquery on an
 * indexed `org_id`, so a page costs one round trip whatever its size (no query per row).
 */
async function selectOrganizations(db: Db | Tx, where: Prisma.Sql, limit: number): Promise<Row[]> {
  return db.$queryRaw<Row[]>`
    SELECT o.id, o.slug, o.name, o.status::text AS status, o.default_region, o.created_at, o.updated_at,
           r.allowed_regions, m.members, k.active_api_keys, c.clusters
    FROM organizations o
    CROSS JOIN LATERAL (
      SELECT COALESCE(array_agg(x.region ORDER BY x.region), '{}') AS allowed_regions
      FROM organization_regions x WHERE x.org_id = o.id) r
    CROSS JOIN LATERAL (SELECT count(*) AS members FROM memberships x WHERE x.org_id = o.id) m
    CROSS JOIN LATERAL (
      SELECT count(*) AS active_api_keys FROM api_keys x WHERE x.org_id = o.id AND x.revoked_at IS NULL) k
    CROSS JOIN LATERAL (
      SELECT jsonb_object_agg(s.status, s.n) AS clusters
      FROM (SELECT x.status::text AS status, count(*)::int AS n FROM clusters x
            WHERE x.org_id = o.id AND x.status <> 'deleted' GROUP BY x.status) s) c
    WHERE ${where}
    ORDER BY o.slug
    LIMIT ${limit}`;
}

export async function listOrganizations(
  req: DataRequest,
  f: OrganizationFilter,
): Promise<{ data: OrganizationSummary[]; next_cursor: string | null }> {
  const q = f.q?.trim();
  const region = await regionFilter(f.region);
  const conds: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (q) conds.push(Prisma.sql`(o.slug ILIKE ${likePattern(q)} OR o.name ILIKE ${likePattern(q)} OR o.id = ${q})`);
  if (region) {
    conds.push(
      Prisma.sql`EXISTS (SELECT 1 FROM organization_regions x WHERE x.org_id = o.id AND x.region = ${region})`,
    );
  }
  if (f.cursor) conds.push(Prisma.sql`o.slug > ${decodeCursor(f.cursor)}`);
  const rows = await read(req, (db) => selectOrganizations(db, Prisma.join(conds, ' AND '), f.limit + 1));
  const page = rows.slice(0, f.limit);
  return {
    data: page.map(toSummary),
    next_cursor: rows.length > f.limit ? encodeCursor(page.at(-1)!.slug) : null,
  };
}

async function detailOf(db: Db | Tx, id: string): Promise<OrganizationDetail | null> {
  const [row] = await selectOrganizations(db, Prisma.sql`o.id = ${id}`, 1);
  if (!row) return null;
  const [clustersByRegion, keysByRegion, projects] = await Promise.all([
    db.cluster.groupBy({ by: ['region'], where: { orgId: id, status: { not: 'deleted' } }, _count: true }),
    db.apiKey.groupBy({ by: ['region'], where: { orgId: id, revokedAt: null }, _count: true }),
    db.project.count({ where: { orgId: id } }),
  ]);
  return {
    ...toSummary(row),
    projects,
    clusters_by_region: Object.fromEntries(clustersByRegion.map((g) => [g.region, g._count])),
    api_keys_by_region: Object.fromEntries(keysByRegion.map((g) => [g.region ?? GLOBAL_KEY_REGION, g._count])),
    updated_at: row.updated_at.toISOString(),
  };
}

function notFound(id: string): AppError {
  return new AppError('not_found', `no organization ${id}`);
}

export async function organizationDetail(req: DataRequest, id: string): Promise<OrganizationDetail> {
  if (!isId(id, 'org')) throw notFound(id);
  const found = await read(req, (db) => detailOf(db, id));
  if (!found) throw notFound(id);
  return found;
}

export interface RegionsChange {
  allowed_regions?: string[];
  /** `null` clears the default (the organization's mutations must then name a region). */
  default_region?: string | null;
}

/** The checks that need no database: shapes, known codes, default among allowed (pure: unit-tested). */
export function validateRegionsChange(
  change: RegionsChange,
  current: { allowed: string[]; defaultRegion: string | null },
  known: ReadonlySet<string>,
): { allowed: string[]; defaultRegion: string | null } {
  if (change.allowed_regions === undefined && change.default_region === undefined) {
    throw new AppError('invalid_request', 'send allowed_regions, default_region or both');
  }
  const named = [...(change.allowed_regions ?? []), ...(change.default_region ? [change.default_region] : [])];
  const fieldOf = (r: string) => (change.allowed_regions?.includes(r) ? 'allowed_regions' : 'default_region');
  const malformed = named.filter((r) => !isRegionCode(r));
  if (malformed.length) {
    throw new AppError('invalid_region', `not region codes: ${malformed.join(', ')}`, {
      extra: { details: malformed.map((r) => ({ path: [fieldOf(r)], message: `"${r}" is not a region code` })) },
    });
  }
  const unknown = [...new Set(named.filter((r) => !known.has(r)))];
  if (unknown.length) {
    throw new AppError('invalid_region', `unknown regions: ${unknown.join(', ')}`, {
      extra: { details: unknown.map((r) => ({ path: [fieldOf(r)], message: `no region ${r}` })) },
    });
  }
  const allowed = change.allowed_regions ? [...new Set(change.allowed_regions)].sort() : current.allowed;
  if (allowed.length === 0) {
    throw new AppError('invalid_request', 'an organization needs at least one allowed region', {
      extra: { details: [{ path: ['allowed_regions'], message: 'at least one region' }] },
    });
  }
  const defaultRegion = change.default_region !== undefined ? change.default_region : current.defaultRegion;
  if (defaultRegion !== null && !allowed.includes(defaultRegion)) {
    throw new AppError(
      'invalid_request',
      change.default_region !== undefined
        ? `the default region ${defaultRegion} must be one of the allowed regions (${allowed.join(', ')})`
        : `the current default region ${defaultRegion} would no longer be allowed: choose another default (or none)`,
      { extra: { details: [{ path: ['default_region'], message: `not among ${allowed.join(', ')}` }] } },
    );
  }
  return { allowed, defaultRegion };
}

/**
 * Sets an organization's allowed and default regions. The allowed regions are part of the
 * organization's routing policy (server/routing/publish.ts): the change publishes a new policy
 * version (same transaction, same locks: the store's row, then the organization's, FOR NO KEY
 * UPDATE — two operators' changes apply one after the other, while cluster inserts, which hold the
 * row FOR KEY SHARE through their foreign key, are not blocked by it). The policy's projection
 * refuses removing a region that still holds live clusters (409) and clears project defaults in
 * removed regions; a change of the default region alone publishes no version.
 */
export async function setOrganizationRegions(
  req: DataRequest,
  actorId: string,
  id: string,
  change: RegionsChange,
): Promise<OrganizationDetail> {
  if (!isId(id, 'org')) throw notFound(id);
  const known = (await regionRegistry()).known;
  const cleared = await write(req, async (tx) => {
    let before: { allowed: string[]; defaultRegion: string | null } | undefined;
    let after: { allowed: string[]; defaultRegion: string | null } | undefined;
    const out = await publishInTx(
      tx,
      { requestId: req.requestId, actorId },
      id,
      ({ current, org, homeFor }) => {
        before = { allowed: org!.allowed, defaultRegion: org!.default_region };
        after = validateRegionsChange(change, before, known);
        const base = current?.content ?? builtInDefault();
        return {
          content: {
            ...base,
            allowed_regions: after.allowed,
            primary_region: homeFor(after.allowed, after.defaultRegion) ?? after.allowed[0],
            // A standby or weighted region that is no longer allowed goes with it.
            standby_region:
              base.standby_region && after.allowed.includes(base.standby_region) ? base.standby_region : null,
            failover_mode:
              base.failover_mode === 'active_standby' &&
              !(base.standby_region && after.allowed.includes(base.standby_region))
                ? 'fixed'
                : base.failover_mode,
          },
          defaultRegion: after.defaultRegion,
        };
      },
      { ifUnchanged: 'skip', reason: 'allowed regions changed (PATCH /v1/atlas/organizations)' },
    ).catch((e: unknown) => {
      if (e instanceof AppError && e.code === 'not_found') throw notFound(id);
      throw e;
    });
    await recordAudit(tx, {
      action: ORG_REGIONS_AUDIT_ACTION,
      targetType: 'organization',
      targetId: id,
      orgId: id,
      actorId,
      requestId: req.requestId,
      metadata: {
        before: { allowed_regions: before!.allowed, default_region: before!.defaultRegion },
        after: { allowed_regions: after!.allowed, default_region: after!.defaultRegion },
        ...(out.policy ? { policy_version: formatVersion(out.policy.version) } : {}),
        ...(out.clearedProjects.length ? { cleared_project_defaults: out.clearedProjects } : {}),
      },
    });
    return out.clearedProjects;
  });
  // Other gateways hear the triggers' NOTIFY; this one forgets at once, so its next request sees it.
  identityChanged([`org:${id}`, ...cleared.map((p) => `project:${p}`)]);
  // Read our own write from the primary (the bookmark makes a replica read wait for it too).
  return (await readPrimary((db) => detailOf(db, id)))!;
}
