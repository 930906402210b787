// Atlas organizations through the REST door, as an operator: the list (aggregates checked against
// the tables, search, region filter, cursor pages), one in detail, and the regions change
// (validation, 409 naming the regions that still hold clusters, audit with before → after, and
// the identity caches: a key of a removed region is refused by its next request). Customers: 403.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../server/db/client';
import { newId } from '../../server/ids';
import type { DemoCredentials } from '../../dev/demo/seed';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { topology, waitForReplay } from '../../dev/testing/db';

type ErrorOut = { error: { code: string; message: string; request_id: string; details?: unknown } };
type Org = {
  id: string;
  slug: string;
  name: string;
  status: string;
  allowed_regions: string[];
  default_region: string | null;
  members: number;
  active_api_keys: number;
  clusters: Record<string, number>;
  created_at: string;
};
type Detail = Org & { clusters_by_region: Record<string, number>; api_keys_by_region: Record<string, number> };
type Page = { data: Org[]; next_cursor: string | null };

let ops: string;
let opsId: string;
let bob: string;
let creds: DemoCredentials;
let acmeId: string;
let globexId: string;
let urls: { primary: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const get = <T>(path: string, cookie = ops) => rest<T & ErrorOut>('GET', path, { headers: { cookie } });
const patch = (id: string, body: unknown, cookie = ops) =>
  rest<Detail & ErrorOut>('PATCH', `/v1/atlas/organizations/${id}`, { headers: { cookie }, body });
const keyOf = (org: string, region: string) => creds.api_keys.find((k) => k.org === org && k.region === region)!.key;
/** A request with a region key at its own region's gateway, as its client would send it. */
const withKey = (key: string) =>
  rest<ErrorOut>('GET', '/v1/projects', {
    headers: { authorization: `Bearer ${key}` },
    host: `${key.split('_')[1]}.localhost:3000`,
  });

beforeAll(async () => {
  ({ credentials: creds, urls } = await useDemoDatabase('atlas_orgs'));
  const db = primary();
  opsId = (await db.user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } })).id;
  ops = await sessionCookie(opsId, null);
  acmeId = (await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } })).id;
  globexId = (await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } })).id;
  const bobId = (await db.user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
  bob = await sessionCookie(bobId, globexId);
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
});

/** What the tables say about one organization, counted the plain way. */
async function expected(orgId: string) {
  const db = primary();
  const clusters = await db.cluster.groupBy({
    by: ['status'],
    where: { orgId, status: { not: 'deleted' } },
    _count: true,
  });
  return {
    members: await db.membership.count({ where: { orgId } }),
    active_api_keys: await db.apiKey.count({ where: { orgId, revokedAt: null } }),
    clusters: Object.fromEntries(clusters.map((c) => [c.status, c._count])),
    total: clusters.reduce((a, c) => a + c._count, 0),
  };
}

describe('GET /v1/atlas/organizations', () => {
  it('lists every organization with regions, members, clusters by status and active keys (from the tables)', async () => {
    const res = await get<Page>('/v1/atlas/organizations');
    expect(res.status).toBe(200);
    expect(res.body.data.map((o) => o.slug)).toEqual(['acme', 'globex']);
    const [acme, globex] = res.body.data;
    expect(acme).toMatchObject({ id: acmeId, status: 'active', allowed_regions: ['sfo1'], default_region: 'sfo1' });
    expect(globex).toMatchObject({ allowed_regions: ['ams1', 'lax1', 'sfo1'], default_region: null });
    for (const org of [acme!, globex!]) {
      const want = await expected(org.id);
      expect(org.members).toBe(want.members);
      expect(org.active_api_keys).toBe(want.active_api_keys);
      expect(org.clusters.total).toBe(want.total);
      for (const [status, n] of Object.entries(want.clusters)) expect(org.clusters[status], status).toBe(n);
      expect(Date.parse(org.created_at)).not.toBeNaN();
    }
    expect(acme!.members).toBe(2); // alice, and bob (a member of acme too)
    expect(globex!.clusters.total).toBeGreaterThan(0);
  });

  it('counts only active keys: a revoked one drops out', async () => {
    const before = (await get<Page>('/v1/atlas/organizations?q=acme')).body.data[0]!.active_api_keys;
    const key = await primary().apiKey.findFirstOrThrow({ where: { orgId: acmeId, revokedAt: null } });
    await primary().apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    try {
      const after = await get<Page>('/v1/atlas/organizations?q=acme');
      expect(after.body.data[0]!.active_api_keys).toBe(before - 1);
    } finally {
      await primary().apiKey.update({ where: { id: key.id }, data: { revokedAt: null } });
    }
  });

  it('searches slug, name (case-insensitive) and ID; % and _ are letters', async () => {
    const slugs = async (q: string) =>
      (await get<Page>(`/v1/atlas/organizations?q=${encodeURIComponent(q)}`)).body.data.map((o) => o.slug);
    expect(await slugs('glob')).toEqual(['globex']);
    expect(await slugs('ACM')).toEqual(['acme']);
    expect(await slugs(globexId)).toEqual(['globex']);
    expect(await slugs('%')).toEqual([]);
    expect(await slugs('_')).toEqual([]);
    expect(await slugs('nobody-by-this-name')).toEqual([]);
  });

  it('filters by allowed region; a malformed or unknown region is 400 invalid_region', async () => {
    const lax = await get<Page>('/v1/atlas/organizations?region=lax1');
    expect(lax.body.data.map((o) => o.slug)).toEqual(['globex']);
    const sfo = await get<Page>('/v1/atlas/organizations?region=sfo1');
    expect(sfo.body.data.map((o) => o.slug)).toEqual(['acme', 'globex']);
    for (const bad of ['NOPE', 'zzz9']) {
      const res = await get<Page>(`/v1/atlas/organizations?region=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_region');
    }
  });

  it('pages with a cursor, without skipping or repeating; a forged cursor is 400', async () => {
    const first = await get<Page>('/v1/atlas/organizations?limit=1');
    expect(first.body.data.map((o) => o.slug)).toEqual(['acme']);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await get<Page>(`/v1/atlas/organizations?limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((o) => o.slug)).toEqual(['globex']);
    expect(second.body.next_cursor).toBeNull();
    const forged = await get<Page>(`/v1/atlas/organizations?cursor=${Buffer.from('DROP TABLE').toString('base64url')}`);
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe('invalid_request');
    expect((await get<Page>('/v1/atlas/organizations?limit=0')).status).toBe(400);
  });
});

describe('GET /v1/atlas/organizations/{id}', () => {
  it('answers one organization with clusters and keys per region', async () => {
    const res = await get<Detail>(`/v1/atlas/organizations/${globexId}`);
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe('globex');
    const byRegion = await primary().cluster.groupBy({
      by: ['region'],
      where: { orgId: globexId, status: { not: 'deleted' } },
      _count: true,
    });
    expect(res.body.clusters_by_region).toEqual(Object.fromEntries(byRegion.map((g) => [g.region, g._count])));
    expect(Object.values(res.body.api_keys_by_region).reduce((a, n) => a + n, 0)).toBe(res.body.active_api_keys);
  });

  it('an unknown or malformed ID is 404', async () => {
    expect((await get(`/v1/atlas/organizations/org_${'0'.repeat(26)}`)).status).toBe(404);
    const bad = await get('/v1/atlas/organizations/nope');
    expect(bad.status).toBe(404);
    expect(bad.body.error.code).toBe('not_found');
  });
});

describe('PATCH /v1/atlas/organizations/{id}', () => {
  const audits = () =>
    primary().auditEvent.findMany({
      where: { action: 'operator.organization.set_regions' },
      orderBy: { createdAt: 'asc' },
    });

  it('validates: known codes, a non-empty set, the default among the allowed, something to change', async () => {
    const cases: [unknown, string][] = [
      [{ allowed_regions: [] }, 'invalid_request'],
      [{ allowed_regions: ['sfo1', 'zzz9'] }, 'invalid_region'],
      [{ allowed_regions: ['SFO'] }, 'invalid_region'],
      [{ default_region: 'ams1' }, 'invalid_request'], // acme is sfo1-only
      [{ allowed_regions: ['sfo1', 'lax1'], default_region: 'ams1' }, 'invalid_request'],
      [{}, 'invalid_request'],
      [{ allowed_regions: 'sfo1' }, 'invalid_request'],
    ];
    for (const [body, code] of cases) {
      const res = await patch(acmeId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code, JSON.stringify(body)).toBe(code);
    }
    const unknown = await patch(acmeId, { allowed_regions: ['sfo1', 'zzz9'] });
    expect(unknown.body.error.message).toContain('zzz9');
    expect((await patch(`org_${'0'.repeat(26)}`, { default_region: null })).status).toBe(404);
    expect(await audits()).toHaveLength(0);
  });

  it('refuses with 409 to remove regions that hold live clusters, naming them and how many', async () => {
    const held = await primary().cluster.groupBy({
      by: ['region'],
      where: { orgId: globexId, region: { in: ['lax1', 'ams1'] }, status: { not: 'deleted' } },
      _count: true,
      orderBy: { region: 'asc' },
    });
    expect(held.length).toBe(2);
    const res = await patch(globexId, { allowed_regions: ['sfo1'] });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
    for (const g of held) expect(res.body.error.message).toContain(`${g.region} (${g._count} cluster`);
    expect(res.body.error.details).toEqual({
      regions: held.map((g) => ({ region: g.region, live_clusters: g._count })),
    });
    const regions = await primary().organizationRegion.findMany({ where: { orgId: globexId } });
    expect(regions.map((r) => r.region).sort()).toEqual(['ams1', 'lax1', 'sfo1']);
    expect(await audits()).toHaveLength(0);
  });

  it('sets the default region, audited with before → after and the request ID; clears it again', async () => {
    const res = await patch(globexId, { default_region: 'lax1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ default_region: 'lax1', allowed_regions: ['ams1', 'lax1', 'sfo1'] });
    expect((await primary().organization.findUniqueOrThrow({ where: { id: globexId } })).defaultRegion).toBe('lax1');
    const [event] = await audits();
    expect(event).toMatchObject({
      actorId: opsId,
      orgId: globexId,
      targetType: 'organization',
      targetId: globexId,
      requestId: res.headers.get('X-Request-Id'),
      metadata: {
        before: { allowed_regions: ['ams1', 'lax1', 'sfo1'], default_region: null },
        after: { allowed_regions: ['ams1', 'lax1', 'sfo1'], default_region: 'lax1' },
      },
    });
    // Globex's own next request resolves its default at once (no stale cached organization).
    const org = await rest<{ default_region: string | null }>('GET', '/v1/organization', { headers: { cookie: bob } });
    expect(org.body.default_region).toBe('lax1');
    const cleared = await patch(globexId, { default_region: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.default_region).toBeNull();
    expect(await audits()).toHaveLength(2);
  });

  it('removing a region (once its clusters are gone) refuses that region’s key on its next request; adding it back restores it', async () => {
    const amsKey = keyOf('globex', 'ams1');
    expect((await withKey(amsKey)).status).toBe(200); // cached now
    // The clusters in ams1 end (as their deletions would), so the region may go.
    await primary().cluster.updateMany({ where: { orgId: globexId, region: 'ams1' }, data: { status: 'deleted' } });
    const project = await primary().project.findFirstOrThrow({ where: { orgId: globexId } });
    await primary().project.update({ where: { id: project.id }, data: { defaultRegion: 'ams1' } });

    const res = await patch(globexId, { allowed_regions: ['sfo1', 'lax1'] });
    expect(res.status).toBe(200);
    expect(res.body.allowed_regions).toEqual(['lax1', 'sfo1']);
    const refused = await withKey(amsKey);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('region_not_allowed');
    expect((await withKey(keyOf('globex', 'lax1'))).status).toBe(200); // the others still work
    // A project defaulting to the removed region loses that default (it would resolve to a refused region).
    expect((await primary().project.findUniqueOrThrow({ where: { id: project.id } })).defaultRegion).toBeNull();
    const event = (await audits()).at(-1)!;
    expect(event.metadata).toMatchObject({
      before: { allowed_regions: ['ams1', 'lax1', 'sfo1'] },
      after: { allowed_regions: ['lax1', 'sfo1'] },
      cleared_project_defaults: [project.id],
    });

    expect((await patch(globexId, { allowed_regions: ['sfo1', 'lax1', 'ams1'] })).status).toBe(200);
    expect((await withKey(amsKey)).status).toBe(200);
  });

  it('a cluster create in flight in a region being removed: the removal waits for it, then answers 409', async () => {
    // ams1 holds no live globex cluster now (the test above); a create transaction holds its row.
    const create = new pg.Client({ connectionString: urls.primary });
    await create.connect();
    const project = await primary().project.findFirstOrThrow({ where: { orgId: globexId } });
    const clusterId = newId('cls');
    try {
      await create.query('BEGIN');
      const held = await create.query(
        'SELECT 1 FROM organization_regions WHERE org_id = $1 AND region = $2 FOR KEY SHARE',
        [globexId, 'ams1'],
      );
      expect(held.rowCount).toBe(1);
      const removal = patch(globexId, { allowed_regions: ['sfo1', 'lax1'] });
      const early = await Promise.race([removal.then(() => 'answered'), sleep(300).then(() => 'waiting')]);
      expect(early).toBe('waiting');
      await create.query(
        `INSERT INTO clusters (id, org_id, project_id, region, name, template, node_count, version, status, updated_at)
         VALUES ($1, $2, $3, 'ams1', 'in-flight', 'k8s-small', 1, '1.34.1', 'pending', now())`,
        [clusterId, globexId, project.id],
      );
      await create.query('COMMIT');
      const res = await removal;
      expect(res.status).toBe(409);
      expect(res.body.error.details).toEqual({ regions: [{ region: 'ams1', live_clusters: 1 }] });
      const regions = await primary().organizationRegion.findMany({ where: { orgId: globexId } });
      expect(regions.map((r) => r.region).sort()).toEqual(['ams1', 'lax1', 'sfo1']);
    } finally {
      await create.query('ROLLBACK').catch(() => {});
      await create.end();
      await primary().cluster.updateMany({ where: { id: clusterId }, data: { status: 'deleted' } });
    }
  });

  it('a removal in flight: a cluster create in that region waits for it, then is refused with 403', async () => {
    const removal = new pg.Client({ connectionString: urls.primary });
    await removal.connect();
    const project = await primary().project.findFirstOrThrow({ where: { orgId: globexId } });
    try {
      await removal.query('BEGIN');
      await removal.query('DELETE FROM organization_regions WHERE org_id = $1 AND region = $2', [globexId, 'ams1']);
      const create = rest<ErrorOut>('POST', '/v1/compute/clusters', {
        headers: { cookie: bob },
        body: { name: 'racing-removal', project_id: project.id, template: 'k8s-small', node_count: 1, region: 'ams1' },
      });
      const early = await Promise.race([create.then(() => 'answered'), sleep(300).then(() => 'waiting')]);
      expect(early).toBe('waiting');
      await removal.query('COMMIT');
      const res = await create;
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('region_not_allowed');
      expect(await primary().cluster.count({ where: { name: 'racing-removal' } })).toBe(0);
    } finally {
      await removal.query('ROLLBACK').catch(() => {});
      await removal.end();
      await primary().organizationRegion.upsert({
        where: { orgId_region: { orgId: globexId, region: 'ams1' } },
        create: { orgId: globexId, region: 'ams1' },
        update: {},
      });
    }
  });

  it('a change committed by another gateway reaches this one’s cache through the NOTIFY trigger', async () => {
    const laxKey = keyOf('globex', 'lax1');
    expect((await withKey(laxKey)).status).toBe(200); // cached now (TTL 5 s)
    // Straight on the primary, as another gateway process would: nothing here calls the cache.
    await primary().organizationRegion.delete({ where: { orgId_region: { orgId: globexId, region: 'lax1' } } });
    try {
      const t = performance.now();
      let status = 200;
      while (status !== 403 && performance.now() - t < 2_000) {
        status = (await withKey(laxKey)).status;
        if (status !== 403) await new Promise((r) => setTimeout(r, 10));
      }
      expect(status).toBe(403);
      expect(performance.now() - t).toBeLessThan(2_000); // well inside the 5 s TTL
    } finally {
      await primary().organizationRegion.create({ data: { orgId: globexId, region: 'lax1' } });
    }
  });
});

describe('customers are refused (403 forbidden) before anything runs', () => {
  it.each([
    ['GET', '/v1/atlas/organizations'],
    ['GET', '/v1/atlas/organizations/{globex}'],
    ['PATCH', '/v1/atlas/organizations/{globex}'],
  ])('%s %s', async (method, path) => {
    const url = path.replace('{globex}', globexId);
    const body = method === 'PATCH' ? { default_region: 'sfo1' } : undefined;
    for (const headers of [{ cookie: bob }, { authorization: `Bearer ${keyOf('globex', 'sfo1')}` }] as Record<
      string,
      string
    >[]) {
      const res = await rest<ErrorOut>(method, url, { headers, body });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    expect((await primary().organization.findUniqueOrThrow({ where: { id: globexId } })).defaultRegion).toBeNull();
  });
});
