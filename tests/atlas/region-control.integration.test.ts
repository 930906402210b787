// Region control through the REST door: PATCH /v1/atlas/regions/{code} needs a reason, is
// audited with the request ID, and takes effect at once: draining refuses new clusters (409
// region_draining) while existing ones still read; down answers 503 and fan-out marks it error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../server/db/client';
import { refreshRegionRegistry } from '../../server/region/registry';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { topology, waitForReplay } from '../../dev/testing/db';

type ErrorOut = { error: { code: string; message: string; request_id: string } };

let ops: string;
let opsId: string;
let bob: string;
let globexProject: string;

const patch = (code: string, body: unknown, cookie = ops) =>
  rest<Record<string, unknown> & ErrorOut>('PATCH', `/v1/atlas/regions/${code}`, { headers: { cookie }, body });

const createIn = (region: string) =>
  rest<ErrorOut & { cluster?: { id: string } }>('POST', '/v1/compute/clusters', {
    headers: { cookie: bob },
    body: {
      name: `c-${Date.now().toString(36)}`,
      project_id: globexProject,
      template: 'k8s-small',
      node_count: 1,
      region,
    },
  });

beforeAll(async () => {
  await useDemoDatabase('atlas_control');
  const db = primary();
  opsId = (await db.user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } })).id;
  ops = await sessionCookie(opsId, null);
  const globex = await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } });
  const bobId = (await db.user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
  bob = await sessionCookie(bobId, globex.id);
  globexProject = (await db.project.findFirstOrThrow({ where: { orgId: globex.id } })).id;
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
});

afterAll(async () => {
  await primary().region.updateMany({ data: { status: 'active' } });
  await refreshRegionRegistry();
});

describe('PATCH /v1/atlas/regions/{code}', () => {
  it('needs a reason (400), a valid status and a known region', async () => {
    for (const body of [{ status: 'draining' }, { status: 'draining', reason: '   ' }]) {
      const res = await patch('lax1', body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    expect((await patch('lax1', { status: 'closed', reason: 'x' })).status).toBe(400);
    expect((await patch('zzz9', { status: 'draining', reason: 'x' })).status).toBe(404);
    expect((await patch('NOPE', { status: 'draining', reason: 'x' })).body.error.code).toBe('invalid_region');
    expect((await primary().region.findUniqueOrThrow({ where: { code: 'lax1' } })).status).toBe('active');
  });

  it('a customer gets 403 and changes nothing', async () => {
    const res = await patch('lax1', { status: 'down', reason: 'nope' }, bob);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect((await primary().region.findUniqueOrThrow({ where: { code: 'lax1' } })).status).toBe('active');
  });

  it('draining: audited with reason and request ID; new clusters refused with 409, existing ones still read', async () => {
    const res = await patch('lax1', { status: 'draining', reason: 'rack maintenance' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 'lax1', status: 'draining', degraded: true });
    expect((res.body.reasons as string[]).join(' ')).toMatch(/Draining/);
    const requestId = res.headers.get('X-Request-Id');
    const events = await primary().auditEvent.findMany({ where: { action: 'operator.region.set_status' } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorId: opsId,
      targetType: 'region',
      targetId: 'lax1',
      requestId,
      metadata: { from: 'active', to: 'draining', reason: 'rack maintenance' },
    });

    const refused = await createIn('lax1');
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('region_draining');
    expect((await createIn('ams1')).status).toBe(202); // other regions take work

    const list = await rest<{ data: { region: string }[] }>('GET', '/v1/compute/clusters?region=lax1', {
      headers: { cookie: bob },
    });
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
  });

  it('down: creates answer 503 region_unavailable with Retry-After; fan-out marks it error; back to active', async () => {
    expect((await patch('lax1', { status: 'down', reason: 'power loss' })).status).toBe(200);
    const refused = await createIn('lax1');
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('region_unavailable');
    expect(refused.headers.get('Retry-After')).not.toBeNull();
    const fan = await rest<{ regions: Record<string, { status: string }> }>('GET', '/v1/compute/clusters', {
      headers: { cookie: bob },
    });
    expect(fan.body.regions.lax1!.status).toBe('error');
    expect(fan.body.regions.sfo1!.status).toBe('ok');

    expect((await patch('lax1', { status: 'active', reason: 'power back' })).status).toBe(200);
    expect((await createIn('lax1')).status).toBe(202);
    const trail = await primary().auditEvent.findMany({
      where: { action: 'operator.region.set_status', targetId: 'lax1' },
      orderBy: { createdAt: 'asc' },
    });
    expect(trail.map((e) => (e.metadata as { to: string }).to)).toEqual(['draining', 'down', 'active']);
  });
});

type AuditPage = {
  data: {
    id: string;
    action: string;
    actor: { email: string } | null;
    target_id: string | null;
    created_at: string;
    request_id: string | null;
  }[];
  next_cursor: string | null;
};

describe('GET /v1/atlas/audit', () => {
  const get = (q: string, cookie = ops) =>
    rest<AuditPage & ErrorOut>('GET', `/v1/atlas/audit${q}`, { headers: { cookie } });

  it('filters by actor (email or ID), action (exact or prefix*) and time, newest first', async () => {
    const byEmail = await get('?actor=ops@meridian.test&action=operator.region.set_status');
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data.map((e) => e.target_id)).toEqual(['lax1', 'lax1', 'lax1']);
    expect(
      byEmail.body.data.every((e) => e.actor?.email === 'ops@meridian.test' && e.request_id?.startsWith('req_')),
    ).toBe(true);
    const times = byEmail.body.data.map((e) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await get(`?actor=${opsId}&action=operator.*`)).body.data).toHaveLength(3);
    expect((await get('?actor=bob@globex.test&action=operator.*')).body.data).toHaveLength(0);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await get(`?from=${encodeURIComponent(future)}`)).body.data).toHaveLength(0);
    expect((await get(`?to=${encodeURIComponent(future)}&action=operator.*`)).body.data).toHaveLength(3);
    expect((await get('?from=yesterday')).status).toBe(400);
  });

  it('pages with a cursor without skipping or repeating', async () => {
    const whole = (await get('?limit=200')).body.data.map((e) => e.id);
    expect(whole.length).toBeGreaterThanOrEqual(3);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: AuditPage } = await get(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...page.body.data.map((e) => e.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(paged).toEqual(whole);
    expect((await get('?cursor=garbage')).status).toBe(400);
  });

  it('refuses customers', async () => {
    expect((await get('', bob)).status).toBe(403);
  });
});
