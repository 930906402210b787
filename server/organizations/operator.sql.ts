// Hand-written SQL of organizations as operators list them: each with its small aggregates in one
// statement (a LATERAL subquery each, on an indexed `org_id`), and their clusters tallied apart.
import { statement, type RawRow } from '../db/sql';

export interface OrganizationRow {
  id: string;
  slug: string;
  name: string;
  status: 'active' | 'moving' | 'suspended' | 'offboarding';
  default_region: string | null;
  offboarding_started_at: Date | null;
  purge_after: Date | null;
  created_at: Date;
  updated_at: Date;
  allowed_regions: string[];
  members: number;
  active_api_keys: number;
}

const date = (v: unknown) => (v instanceof Date ? v : new Date(v as string));

const organizationRow = (r: RawRow): OrganizationRow => ({
  id: r.id as string,
  slug: r.slug as string,
  name: r.name as string,
  status: r.status as OrganizationRow['status'],
  default_region: (r.default_region as string | null) ?? null,
  offboarding_started_at: r.offboarding_started_at == null ? null : date(r.offboarding_started_at),
  purge_after: r.purge_after == null ? null : date(r.purge_after),
  created_at: date(r.created_at),
  updated_at: date(r.updated_at),
  allowed_regions: r.allowed_regions as string[],
  members: Number(r.members),
  active_api_keys: Number(r.active_api_keys),
});

/**
 * Organizations by slug, each with its allowed regions, members and active keys (a LATERAL each, on
 * an indexed `org_id`; its clusters are counted apart: clusterTallies). Each filter absent as null:
 * one ID; a search (the text itself, matched as an ID, and its LIKE pattern, matched against slug
 * and name); an allowed region; the slug after which the page starts.
 */
export const selectOrganizations = statement<
  OrganizationRow,
  [
    id: string | null,
    q: string | null,
    qLike: string | null,
    region: string | null,
    after: string | null,
    limit: number,
  ]
>(
  'organizations.operator_list',
  `
    SELECT o.id, o.slug, o.name, o.status::text AS status, o.default_region, o.created_at, o.updated_at,
           o.offboarding_started_at, o.purge_after,
           r.allowed_regions, m.members, k.active_api_keys
    FROM organizations o
    CROSS JOIN LATERAL (
      SELECT COALESCE(array_agg(x.region ORDER BY x.region), '{}') AS allowed_regions
      FROM organization_regions x WHERE x.org_id = o.id) r
    CROSS JOIN LATERAL (SELECT count(*) AS members FROM memberships x WHERE x.org_id = o.id) m
    CROSS JOIN LATERAL (
      SELECT count(*) AS active_api_keys FROM api_keys x WHERE x.org_id = o.id AND x.revoked_at IS NULL) k
    WHERE ($1::text IS NULL OR o.id = $1)
      AND ($2::text IS NULL OR o.slug ILIKE $3::text OR o.name ILIKE $3 OR o.id = $2)
      AND ($4::text IS NULL
           OR EXISTS (SELECT 1 FROM organization_regions x WHERE x.org_id = o.id AND x.region = $4))
      AND ($5::text IS NULL OR o.slug > $5)
    ORDER BY o.slug
    LIMIT $6::int`,
  organizationRow,
);

export interface ClusterTallyRow {
  org_id: string;
  region: string;
  status: string;
  n: number;
}

/** Live clusters of the organizations by region and status: O(their clusters), index-only scans. */
export const clusterTallies = statement<ClusterTallyRow, [orgIds: string[]]>(
  'organizations.cluster_tallies',
  `SELECT org_id, region, status::text AS status, count(*)::int AS n FROM clusters
    WHERE org_id = ANY($1::text[]) AND status <> 'deleted' GROUP BY 1, 2, 3`,
  (r) => ({ org_id: r.org_id as string, region: r.region as string, status: r.status as string, n: Number(r.n) }),
);
