// The local demo's data (CONTRACT.md, "Local demo"): what each part seeds is in people.ts,
// fleet.ts, clusters.ts and api-keys.ts (docs/operations.md#the-local-demo-npm-start).
import { ensureOrganizationPolicies } from '../../server/routing/initial-policies';
import { hashPassword } from '../../server/auth/password';
import type { Db } from '../../server/db/client';
import { randomBase62 } from '../../server/ids';
import { describeRegion } from '../../server/region/catalog';
import { demoApiKeys } from './api-keys';
import { seedClusters } from './clusters';
import { seedServers } from './fleet';
import { demoPasswords, ensureMemberships, seedTenants } from './people';
import type { DemoSso } from './sso';

export interface DemoCredentials {
  global_url: string;
  regions: Record<string, string>;
  users: { email: string; password: string; org: string | null; role: string }[];
  api_keys: { org: string; region: string; key: string }[];
  /** One organization-wide key (`mk_global_…`) per organization: use it at the global address. */
  global_api_keys: { org: string; key: string }[];
  databases: { primary: string; replicas: Record<string, string> };
  /** The demo's OpenID provider and its people ("Sign in with SSO"): dev/demo/sso.ts. */
  sso?: DemoSso;
  /** Multi-process mode (`npm start -- --gateways-per-region N`): every gateway's address. */
  gateways?: { name: string; region: string; url: string }[];
}

export interface SeedOptions {
  regions: string[];
  globalUrl: string;
  regionUrls: Record<string, string>;
  databases: DemoCredentials['databases'];
  /** Credentials printed by an earlier run, reused when they still verify. */
  previous?: DemoCredentials;
}

const SEED_MARK = 'demo_seed_version';
const SEED_VERSION = 1;

/**
 * Idempotent: the data is written once (marked in directory.settings); later runs refresh the
 * regions and only make sure the printed credentials still work.
 */
export async function seedDemo(db: Db, opts: SeedOptions): Promise<DemoCredentials> {
  const [mothership] = opts.regions;
  if (!mothership) throw new Error('at least one region is required');
  const globexRegions = opts.regions.slice(0, 3);

  // Regions are refreshed on every run (base URLs follow the port).
  for (const code of opts.regions) {
    const d = describeRegion(code);
    const data = { ...d, baseUrl: opts.regionUrls[code]!, isPrimary: code === mothership };
    await db.region.upsert({
      where: { code },
      create: data,
      update: { baseUrl: data.baseUrl, isPrimary: data.isPrimary },
    });
  }

  const mark = await db.directorySetting.findUnique({ where: { key: SEED_MARK } });
  if (!mark) await seedOnce(db, mothership, globexRegions);
  // Every organization gets its routing policy's first version (the migration did it for those
  // that existed then): its regions, its home region as the primary, mode fixed.
  await ensureOrganizationPolicies(db);
  await ensureMemberships(db);

  const users = await demoPasswords(db, opts.previous);
  const keys = await demoApiKeys(db, opts.regions, opts.previous);
  return {
    global_url: opts.globalUrl,
    regions: opts.regionUrls,
    users,
    ...keys,
    databases: opts.databases,
  };
}

async function seedOnce(db: Db, mothership: string, globexRegions: string[]): Promise<void> {
  const placeholder = await hashPassword(randomBase62(32)); // replaced right after by real passwords

  await db.$transaction(
    async (tx) => {
      const tenants = await seedTenants(tx, mothership, globexRegions, placeholder);
      const servers = await seedServers(tx, globexRegions);
      await seedClusters(tx, mothership, globexRegions, tenants, servers);
      // The directory's entries are not written here: each cell registers its region and its
      // organizations through signed calls when it starts (server/cell/registration.ts).
      await tx.directorySetting.create({ data: { key: SEED_MARK, value: SEED_VERSION } });
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}
