// The demo's API keys: one per organization and allowed region, and one organization-wide key per
// organization; a previous run's key is reused while it is still in the database.
import { mintApiKey, parseApiKey } from '../../server/api-keys/format';
import type { Db } from '../../server/db/client';
import { newId } from '../../server/ids';
import type { DemoCredentials } from './seed';

export async function demoApiKeys(
  db: Db,
  regions: string[],
  previous: DemoCredentials | undefined,
): Promise<Pick<DemoCredentials, 'api_keys' | 'global_api_keys'>> {
  const apiKeys: DemoCredentials['api_keys'] = [];
  const globalKeys: DemoCredentials['global_api_keys'] = [];
  const orgs = await db.organization.findMany({
    where: { slug: { in: ['acme', 'globex'] } },
    include: { allowedRegions: true },
    orderBy: { slug: 'asc' },
  });
  for (const org of orgs) {
    const admin = await db.membership.findFirst({ where: { orgId: org.id, role: 'admin' } });
    for (const { region } of org.allowedRegions.sort((a, b) => regions.indexOf(a.region) - regions.indexOf(b.region))) {
      const prev = previous?.api_keys.find((k) => k.org === org.slug && k.region === region)?.key;
      const parsed = prev ? parseApiKey(prev) : undefined;
      const existing = parsed
        ? await db.apiKey.findFirst({ where: { prefix: parsed.prefix, orgId: org.id, region, revokedAt: null } })
        : null;
      if (existing && prev) {
        // The demo keys do everything an admin may (keys made before scopes existed got `write`).
        if (!existing.scopes.includes('admin')) {
          await db.apiKey.update({ where: { id: existing.id }, data: { scopes: ['admin'] } });
        }
        apiKeys.push({ org: org.slug, region, key: prev });
        continue;
      }
      const minted = mintApiKey(region);
      await db.apiKey.create({
        data: {
          id: newId('key'),
          orgId: org.id,
          createdById: admin?.userId ?? null,
          name: `demo ${region}`,
          region,
          prefix: minted.prefix,
          secretHash: minted.secretHash,
          scopes: ['admin'],
        },
      });
      apiKeys.push({ org: org.slug, region, key: minted.key });
    }
    globalKeys.push({
      org: org.slug,
      key: await demoGlobalKey(db, org.id, admin?.userId ?? null, previous, org.slug),
    });
  }

  return { api_keys: apiKeys, global_api_keys: globalKeys };
}

/** The organization's demo organization-wide key: the previous run's while it still exists, else a new one. */
async function demoGlobalKey(
  db: Db,
  orgId: string,
  createdById: string | null,
  previous: DemoCredentials | undefined,
  slug: string,
): Promise<string> {
  const prev = previous?.global_api_keys?.find((k) => k.org === slug)?.key;
  const parsed = prev ? parseApiKey(prev) : undefined;
  if (prev && parsed) {
    const existing = await db.apiKey.findFirst({
      where: { prefix: parsed.prefix, orgId, region: null, revokedAt: null },
    });
    if (existing) return prev;
  }
  const minted = mintApiKey(null);
  await db.apiKey.create({
    data: {
      id: newId('key'),
      orgId,
      createdById,
      name: 'demo global',
      region: null,
      prefix: minted.prefix,
      secretHash: minted.secretHash,
      scopes: ['admin'],
    },
  });
  return minted.key;
}
