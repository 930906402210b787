// The organization as the routing policy rules see it: its allowed and home regions, its live
// clusters per region, and the registry's regions in order; looked up by ID, slug or `default`.
import { z } from 'zod';
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { run } from '../db/sql';
import { homeRegionOf } from '../cell/workspaces';
import { AppError } from '../errors';
import { isId } from '../ids';
import { regionOrder } from './policy.sql';

/** The organization as the policy API shows it beside its versions. */
export const policyOrgView = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  // The policy's primary region must be this one (a different one is a workspace move).
  home_region: z.string().nullable(),
  default_region: z.string().nullable(),
  allowed_regions: z.array(z.string()),
  // Live clusters per region: a region holding some can't leave the allowed set.
  live_clusters_by_region: z.record(z.string(), z.number()),
});
export type PolicyOrg = z.infer<typeof policyOrgView>;

/** A `PolicyOrg` with what the rules need besides: its explicit home and the registry's order. */
export type FoundOrg = PolicyOrg & { explicitHome: string | null; order: string[] };

/** The registry's regions, the mothership first, with their status. */
export function registryOrder(db: Db | Tx): Promise<{ code: string; status: string }[]> {
  return run(db, regionOrder);
}

/** `default` (the platform default), an organization ID or a slug → the organization, or null. */
export async function findOrg(db: Db | Tx, ref: string): Promise<FoundOrg | null | 'default'> {
  if (ref === 'default') return 'default';
  const org = await db.organization.findFirst({
    where: isId(ref, 'org') ? { id: ref } : { slug: ref },
    include: { allowedRegions: { select: { region: true } } },
  });
  if (!org) return null;
  const [regions, clusters] = await Promise.all([
    registryOrder(db),
    db.cluster.groupBy({ by: ['region'], where: { orgId: org.id, status: { not: 'deleted' } }, _count: true }),
  ]);
  const allowed = org.allowedRegions.map((r) => r.region).sort();
  return {
    id: org.id,
    slug: org.slug,
    name: org.name,
    home_region:
      homeRegionOf(
        { homeRegion: org.homeRegion, defaultRegion: org.defaultRegion, allowedRegions: allowed },
        regions.map((r) => r.code),
      ) ?? null,
    default_region: org.defaultRegion,
    allowed_regions: allowed,
    live_clusters_by_region: Object.fromEntries(clusters.map((c) => [c.region, c._count])),
    explicitHome: org.homeRegion,
    order: regions.map((r) => r.code),
  };
}

/** `findOrg`, 404 when there is none. */
export async function orgOrThrow(db: Db | Tx, ref: string): Promise<FoundOrg | 'default'> {
  if (ref.length > 64) throw new AppError('invalid_request', 'org: an organization ID, slug or "default"');
  const org = await findOrg(db, ref);
  if (!org) throw new AppError('not_found', `no organization ${ref}`);
  return org;
}

/** `default` (or null) → null; an organization ID or slug → its ID (404 otherwise). */
export async function orgIdOf(db: Db | Tx, ref: string | null): Promise<string | null> {
  if (ref === null || ref === 'default') return null;
  if (ref.length > 64) throw new AppError('invalid_request', 'org: an organization ID, slug or "default"');
  const org = await db.organization.findFirst({
    where: isId(ref, 'org') ? { id: ref } : { slug: ref },
    select: { id: true },
  });
  if (!org) throw new AppError('not_found', `no organization ${ref}`);
  return org.id;
}

export const stripInternal = ({ explicitHome: _h, order: _o, ...org }: FoundOrg): PolicyOrg => org;

/** The publishers' e-mail addresses, by user ID. */
export async function emailsOf(db: Db | Tx, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (!wanted.length) return new Map();
  const users = await db.user.findMany({ where: { id: { in: wanted } }, select: { id: true, email: true } });
  return new Map(users.map((u) => [u.id, u.email]));
}
