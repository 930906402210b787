import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeySecretMatches, parseApiKey } from '../../../server/api-keys/format';
import { verifyPassword } from '../../../server/auth/password';
import { connect, type Db } from '../../../server/db/client';
import { freshDatabase } from '../../../dev/testing/db';
import { seedDemo, type DemoCredentials, type SeedOptions } from '../../../dev/demo/seed';

const REGIONS = ['sfo1', 'lax1', 'ams1'];

describe('demo seed', () => {
  let db: Db;
  let opts: SeedOptions;
  let first: DemoCredentials;

  beforeAll(async () => {
    const { primary, replicas } = await freshDatabase('seed');
    const urls = { primary, replicas };
    db = connect(urls.primary, 4, 'primary');
    opts = {
      regions: REGIONS,
      globalUrl: 'http://localhost:3000',
      regionUrls: Object.fromEntries(REGIONS.map((r) => [r, `http://${r}.localhost:3000`])),
      databases: urls,
    };
    first = await seedDemo(db, opts);
  });
  afterAll(() => db.$disconnect());

  it('creates what CONTRACT.md lists under "Local demo"', async () => {
    expect(await db.region.count()).toBe(3);
    expect((await db.region.findFirstOrThrow({ where: { isPrimary: true } })).code).toBe('sfo1');
    const acme = await db.organization.findUniqueOrThrow({
      where: { slug: 'acme' },
      include: { allowedRegions: true },
    });
    const globex = await db.organization.findUniqueOrThrow({
      where: { slug: 'globex' },
      include: { allowedRegions: true },
    });
    expect(acme.defaultRegion).toBe('sfo1');
    expect(acme.allowedRegions.map((r) => r.region)).toEqual(['sfo1']);
    expect(globex.defaultRegion).toBeNull();
    expect(globex.allowedRegions.map((r) => r.region).sort()).toEqual(['ams1', 'lax1', 'sfo1']);

    const servers = await db.server.groupBy({ by: ['region'], _count: true });
    expect(servers.reduce((n, s) => n + s._count, 0)).toBeGreaterThanOrEqual(55);
    expect(servers).toHaveLength(3);
    const statuses = await db.cluster.groupBy({ by: ['status'], _count: true });
    expect(statuses.length).toBeGreaterThanOrEqual(4);
    expect(await db.cluster.count()).toBeGreaterThanOrEqual(24);
    expect(await db.notification.count()).toBeGreaterThan(0);
    // The directory is written only by the cells' signed calls (at start), never by the seed.
    expect(await db.directoryWorkspace.count()).toBe(0);
    expect(await db.directoryRegion.count()).toBe(0);

    expect(first.users.map((u) => [u.email, u.org, u.role])).toEqual([
      ['alice@acme.test', 'acme', 'admin'],
      ['bob@globex.test', 'globex', 'admin'],
      ['ops@meridian.test', null, 'operator'],
    ]);
    expect(first.api_keys.map((k) => `${k.org}:${k.region}`)).toEqual([
      'acme:sfo1',
      'globex:sfo1',
      'globex:lax1',
      'globex:ams1',
    ]);
  });

  it('prints credentials that work: argon2id passwords and hashed, region-bound API keys', async () => {
    for (const u of first.users) {
      const row = await db.user.findUniqueOrThrow({ where: { email: u.email } });
      expect(row.passwordHash?.startsWith('$argon2id$')).toBe(true);
      expect(await verifyPassword(row.passwordHash, u.password)).toBe(true);
      expect(await verifyPassword(row.passwordHash, u.password + 'x')).toBe(false);
    }
    for (const k of first.api_keys) {
      const parsed = parseApiKey(k.key)!;
      expect(parsed.region).toBe(k.region);
      const row = await db.apiKey.findUniqueOrThrow({ where: { prefix: parsed.prefix } });
      expect(row.secretHash).not.toContain(parsed.secret);
      expect(apiKeySecretMatches(parsed.secret, row.secretHash)).toBe(true);
    }
  });

  it('is idempotent: a second run adds nothing and keeps the credentials', async () => {
    const before = {
      clusters: await db.cluster.count(),
      servers: await db.server.count(),
      keys: await db.apiKey.count(),
      users: await db.user.count(),
    };
    const second = await seedDemo(db, { ...opts, previous: first });
    expect(second.users).toEqual(first.users);
    expect(second.api_keys).toEqual(first.api_keys);
    expect({
      clusters: await db.cluster.count(),
      servers: await db.server.count(),
      keys: await db.apiKey.count(),
      users: await db.user.count(),
    }).toEqual(before);
  });

  it('replaces credentials it cannot verify (e.g. a lost credentials file)', async () => {
    const third = await seedDemo(db, opts);
    expect(third.users[0]!.password).not.toBe(first.users[0]!.password);
    const row = await db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
    expect(await verifyPassword(row.passwordHash, third.users[0]!.password)).toBe(true);
  });
});
