// Atlas' cross-organization cluster list through the REST door: every organization's clusters
// with the organization's slug, each filter checked against the table, combined filters, cursor
// pages that neither skip nor repeat, validation errors, and customers refused with 403.
import { beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../server/db/client';
import type { DemoCredentials } from '../../dev/demo/seed';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';

type ErrorOut = { error: { code: string; message: string } };
type Row = {
  id: string;
  name: string;
  org: { id: string; slug: string };
  region: string;
  status: string;
  template: string;
};
type Page = { data: Row[]; next_cursor: string | null };

let ops: string;
let bob: string;
let creds: DemoCredentials;
let globexId: string;

const list = (q = '', cookie = ops) =>
  rest<Page & ErrorOut>('GET', `/v1/atlas/compute/clusters${q}`, { headers: { cookie } });

/** Every page of a query, following next_cursor. */
async function all(q: string, limit = 7): Promise<Row[]> {
  const out: Row[] = [];
  let cursor: string | null = null;
  do {
    const sep = q ? '&' : '?';
    const res: { status: number; body: Page } = await list(
      `${q}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(res.status).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

beforeAll(async () => {
  ({ credentials: creds } = await useDemoDatabase('atlas_clusters'));
  const db = primary();
  ops = await sessionCookie((await db.user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } })).id, null);
  globexId = (await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } })).id;
  const bobId = (await db.user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
  bob = await sessionCookie(bobId, globexId);
  // One deleted cluster, which lists only when asked for.
  const victim = await db.cluster.findFirstOrThrow({ where: { orgId: globexId, region: 'ams1' } });
  await db.cluster.update({ where: { id: victim.id }, data: { status: 'deleted', deletedAt: new Date() } });
});

describe('GET /v1/atlas/compute/clusters', () => {
  it('lists every organization’s live clusters, newest first, with the organization’s slug', async () => {
    const rows = await all('', 200);
    const live = await primary().cluster.findMany({
      where: { status: { not: 'deleted' } },
      include: { organization: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    expect(rows.map((r) => r.id)).toEqual(live.map((c) => c.id));
    expect(new Set(rows.map((r) => r.org.slug))).toEqual(new Set(['acme', 'globex']));
    for (const r of rows) expect(r.org.slug).toBe(live.find((c) => c.id === r.id)!.organization.slug);
  });

  it('pages with a cursor without skipping or repeating', async () => {
    const whole = (await all('', 200)).map((r) => r.id);
    const paged = (await all('', 5)).map((r) => r.id);
    expect(paged).toEqual(whole);
    expect(new Set(paged).size).toBe(paged.length);
    expect((await list('?cursor=garbage')).status).toBe(400);
  });

  it('filters by organization (slug or ID), region, status, template, and name or ID', async () => {
    const db = primary();
    const count = (where: object) => db.cluster.count({ where: { status: { not: 'deleted' }, ...where } });
    const globex = await all('?org=globex');
    expect(globex.length).toBe(await count({ orgId: globexId }));
    expect(globex.every((r) => r.org.slug === 'globex')).toBe(true);
    expect((await all(`?org=${globexId}`)).map((r) => r.id)).toEqual(globex.map((r) => r.id));
    expect(await all('?org=nobody')).toEqual([]);

    const lax = await all('?region=lax1');
    expect(lax.length).toBe(await count({ region: 'lax1' }));
    expect(lax.every((r) => r.region === 'lax1')).toBe(true);

    const ready = await all('?status=ready');
    expect(ready.length).toBe(await db.cluster.count({ where: { status: 'ready' } }));
    const deleted = await all('?status=deleted');
    expect(deleted.length).toBe(1);

    const gpu = await all('?template=k8s-gpu');
    expect(gpu.length).toBe(await count({ template: 'k8s-gpu' }));

    const one = globex[3]!;
    expect((await all(`?q=${one.id}`)).map((r) => r.id)).toEqual([one.id]);
    const prefix = one.name.slice(0, 4).toUpperCase();
    const byName = await all(`?q=${prefix}`);
    expect(byName.length).toBe(await count({ name: { contains: prefix, mode: 'insensitive' } }));
    expect(byName.map((r) => r.id)).toContain(one.id);

    const combined = await all('?org=globex&region=sfo1&status=ready');
    expect(combined.length).toBe(await count({ orgId: globexId, region: 'sfo1', status: 'ready' }));
    expect(combined.every((r) => r.org.slug === 'globex' && r.region === 'sfo1' && r.status === 'ready')).toBe(true);
  });

  it('refuses bad filters with a clear 400', async () => {
    for (const [q, code] of [
      ['?region=NOPE', 'invalid_region'],
      ['?region=zzz9', 'invalid_region'],
      ['?status=sleeping', 'invalid_request'],
      ['?template=k8s-huge', 'invalid_request'],
      ['?limit=500', 'invalid_request'],
      [`?q=${'x'.repeat(101)}`, 'invalid_request'],
    ] as const) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code, q).toBe(code);
    }
  });

  it('refuses customers (session and API key) with 403 forbidden', async () => {
    const key = creds.api_keys.find((k) => k.org === 'globex' && k.region === 'sfo1')!.key;
    for (const headers of [{ cookie: bob }, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
      const res = await rest<ErrorOut>('GET', '/v1/atlas/compute/clusters?org=acme', { headers });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
  });
});
