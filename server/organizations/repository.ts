// One organization as its members see it: regions, default region, members.
import type { Db } from '../db/client';

export async function organizationView(db: Db, orgId: string) {
  const org = await db.organization.findUnique({
    where: { id: orgId },
    include: {
      allowedRegions: { include: { regionRef: { select: { code: true, label: true, country: true } } } },
      memberships: { include: { user: { select: { id: true, email: true, name: true } } } },
    },
  });
  if (!org) return null;
  return {
    id: org.id,
    slug: org.slug,
    name: org.name,
    status: org.status,
    purge_after: org.purgeAfter?.toISOString() ?? null,
    default_region: org.defaultRegion,
    allowed_regions: org.allowedRegions
      .map((r) => ({ code: r.regionRef.code, label: r.regionRef.label, country: r.regionRef.country }))
      .sort((a, b) => a.code.localeCompare(b.code)),
    members: org.memberships
      .map((m) => ({
        user_id: m.user.id,
        email: m.user.email,
        name: m.user.name,
        role: m.role,
        joined_at: m.createdAt.toISOString(),
      }))
      .sort((a, b) => a.email.localeCompare(b.email)),
  };
}
