// The Arc write side through the public REST adapter: creating and deleting clusters (202 +
// run + Location, region by the cascade, validation, idempotency, capacity), kubeconfig,
// templates, the organization, notifications (mark all read) and the session's project.
import { beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../../server/db/client';
import type { DemoCredentials } from '../../../dev/demo/seed';
import { isId, newId, parseRequestId } from '../../../server/ids';
import { rest, sessionCookie, useDemoDatabase } from '../../../dev/testing/app';

interface Accepted {
  cluster: { id: string; status: string; region: string; name: string; node_count: number; version: string };
  run_id: string;
}
interface Schema {
  required?: string[];
  properties: Record<string, { description?: string }>;
}
interface ErrorOut {
  error: { code: string; message: string; request_id: string; details?: { path: string[]; message: string }[] };
}

let creds: DemoCredentials;
let alice: string;
let bob: string;
let acmeProject: string;
let globexProject: string;
let acmeId: string;
let aliceId: string;

const name = (() => {
  let n = 0;
  return (p = 'c') => `${p}-${Date.now().toString(36)}-${n++}`;
})();

const body = (over: Record<string, unknown> = {}) => ({
  name: name(),
  project_id: acmeProject,
  template: 'k8s-small',
  node_count: 1,
  ...over,
});

beforeAll(async () => {
  ({ credentials: creds } = await useDemoDatabase('arcapi'));
  const db = primary();
  const acme = await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } });
  const globex = await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } });
  acmeId = acme.id;
  aliceId = (await db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } })).id;
  const bobId = (await db.user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
  alice = await sessionCookie(aliceId, acme.id);
  bob = await sessionCookie(bobId, globex.id);
  acmeProject = (await db.project.findFirstOrThrow({ where: { orgId: acme.id } })).id;
  globexProject = (await db.project.findFirstOrThrow({ where: { orgId: globex.id } })).id;
});

describe('POST /v1/compute/clusters', () => {
  it('defaults: a name is enough (project: the organization’s default, template k8s-standard, its minimum nodes), the same with a session project, an API key and in OpenAPI', async () => {
    const key = creds.api_keys.find((k) => k.org === 'acme' && k.region === 'sfo1')!.key;
    const viaKey = await rest<Accepted & { cluster: { project_id: string; template: string } }>(
      'POST',
      '/v1/compute/clusters',
      { headers: { authorization: `Bearer ${key}`, 'Idempotency-Key': `dflt-${name()}` }, body: { name: name('d') } },
    );
    expect(viaKey.status).toBe(202);
    const firstByName = await primary().project.findFirstOrThrow({
      where: { orgId: acmeId },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    });
    expect(viaKey.body.cluster).toMatchObject({
      project_id: firstByName.id,
      template: 'k8s-standard',
      node_count: 3,
      region: 'sfo1',
      status: 'pending',
    });
    const stored = await primary().cluster.findUniqueOrThrow({ where: { id: viaKey.body.cluster.id } });
    expect([stored.projectId, stored.template, stored.nodeCount]).toEqual([firstByName.id, 'k8s-standard', 3]);
    // The Idempotency-Key's recorded answer carries the resolved project too.
    const record = await primary().idempotencyKey.findFirstOrThrow({
      where: { orgId: acmeId, key: { startsWith: 'dflt-' } },
    });
    expect((record.responseBody as { cluster: { project_id: string } }).cluster.project_id).toBe(firstByName.id);

    // A session with a project chosen: that project, and a template's own minimum.
    const other = await primary().project.create({
      data: { id: newId('prj'), orgId: acmeId, name: `zz-${name()}` },
    });
    const withProject = await sessionCookie(aliceId, acmeId, other.id);
    const viaSession = await rest<Accepted & { cluster: { project_id: string } }>('POST', '/v1/compute/clusters', {
      headers: { cookie: withProject },
      body: { name: name('d'), template: 'k8s-small' },
    });
    expect(viaSession.status).toBe(202);
    expect(viaSession.body.cluster).toMatchObject({ project_id: other.id, node_count: 1 });

    const { openApiDocument } = await import('../../../server/api/openapi');
    const doc = openApiDocument() as unknown as {
      paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: Schema }> } } }>;
    };
    const schema = doc.paths['/compute/clusters']!.post!.requestBody.content['application/json']!.schema;
    expect(schema.required).toEqual(['name']);
    expect(schema.properties.template!.description).toContain('default k8s-standard');
    expect(schema.properties.node_count!.description).toContain('minimum');
    expect(schema.properties.project_id!.description).toContain('default');
  });

  it('single-region org: 202 with the pending cluster, its run and Location, region from the session', async () => {
    const res = await rest<Accepted>('POST', '/v1/compute/clusters', { headers: { cookie: alice }, body: body() });
    expect(res.status).toBe(202);
    expect(res.headers.get('X-Region')).toBe('sfo1');
    expect(res.headers.get('X-Region-Source')).toBe('session');
    expect(parseRequestId(res.headers.get('X-Request-Id') ?? '')).toBeDefined();
    expect(isId(res.body.cluster.id, 'cls')).toBe(true);
    expect(isId(res.body.run_id, 'run')).toBe(true);
    expect(res.body.cluster).toMatchObject({ status: 'pending', region: 'sfo1', version: '1.34.1', node_count: 1 });
    expect(res.headers.get('Location')).toBe(`/v1/workflow-runs/${res.body.run_id}`);
    const bookmark = res.headers.get('X-Meridian-Bookmark');
    expect(bookmark).toBeTruthy();
    // The Location answers at once (read-your-writes through the bookmark), queued with its five steps.
    const run = await rest<{ status: string; kind: string; steps: { name: string; status: string }[] }>(
      'GET',
      res.headers.get('Location')!,
      { headers: { cookie: alice, 'X-Meridian-Bookmark': bookmark! } },
    );
    expect(run.status).toBe(200);
    expect(run.body.kind).toBe('create-cluster');
    expect(run.body.steps.map((s) => s.name)).toEqual([
      'validate',
      'allocate_servers',
      'bootstrap_control_plane',
      'join_workers',
      'ready',
    ]);
    // …and the job is on the sfo1 queue.
    const jobs = await primary().$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM pgboss.job WHERE name = 'workflow-sfo1' AND data->>'runId' = ${res.body.run_id}`;
    expect(Number(jobs[0]!.n)).toBe(1);
  });

  it('multi-region org without a default: 400 region_required; with a body region: 202 there', async () => {
    const none = await rest<ErrorOut>('POST', '/v1/compute/clusters', {
      headers: { cookie: bob },
      body: body({ project_id: globexProject }),
    });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('region_required');
    const ok = await rest<Accepted>('POST', '/v1/compute/clusters', {
      headers: { cookie: bob },
      body: body({ project_id: globexProject, region: 'lax1' }),
    });
    expect(ok.status).toBe(202);
    expect(ok.headers.get('X-Region')).toBe('lax1');
    expect(ok.headers.get('X-Region-Source')).toBe('body');
    expect(ok.body.cluster.region).toBe('lax1');
    const run = await primary().workflowRun.findUniqueOrThrow({ where: { id: ok.body.run_id } });
    expect(run.region).toBe('lax1');
  });

  it('region rules: unknown region 400, a region outside the org 403', async () => {
    const bad = await rest<ErrorOut>('POST', '/v1/compute/clusters', {
      headers: { cookie: bob, 'X-Region': 'zzz9' },
      body: body({ project_id: globexProject }),
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_region']);
    const outside = await rest<ErrorOut>('POST', '/v1/compute/clusters', {
      headers: { cookie: alice },
      body: body({ region: 'lax1' }),
    });
    expect([outside.status, outside.body.error.code]).toEqual([403, 'region_not_allowed']);
  });

  it.each([
    ['an unknown template', { template: 'k8s-huge' }, 'template'],
    ['too many nodes for the template', { node_count: 9 }, 'node_count'],
    ['a version the template lacks', { template: 'k8s-gpu', version: '1.33.2' }, 'version'],
    ['a name with capitals and spaces', { name: 'My Cluster' }, 'name'],
    ['a malformed project ID', { project_id: 'nope' }, 'project_id'],
    ['a fractional node count', { node_count: 1.5 }, 'node_count'],
  ])('rejects %s with 400 invalid_request naming the field', async (_, over, field) => {
    const res = await rest<ErrorOut>('POST', '/v1/compute/clusters', { headers: { cookie: alice }, body: body(over) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details?.some((d) => d.path.includes(field))).toBe(true);
    expect(parseRequestId(res.body.error.request_id ?? '')).toBeDefined();
  });

  it('another organization’s project is 404; a taken name is 409', async () => {
    const foreign = await rest<ErrorOut>('POST', '/v1/compute/clusters', {
      headers: { cookie: alice },
      body: body({ project_id: globexProject }),
    });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'not_found']);
    const b = body();
    expect((await rest('POST', '/v1/compute/clusters', { headers: { cookie: alice }, body: b })).status).toBe(202);
    const again = await rest<ErrorOut>('POST', '/v1/compute/clusters', {
      headers: { cookie: alice },
      body: { ...b, node_count: 2 },
    });
    expect([again.status, again.body.error.code]).toEqual([409, 'conflict']);
  });

  it('refuses more nodes than the region has free: 409 insufficient_capacity', async () => {
    const templates = await rest<{ data: { id: string; capacity: Record<string, number> }[] }>(
      'GET',
      '/v1/compute/templates',
      { headers: { cookie: bob } },
    );
    const free = templates.body.data.find((t) => t.id === 'k8s-gpu')!.capacity.ams1!;
    const res = await rest<ErrorOut & { error: { available: number } }>('POST', '/v1/compute/clusters', {
      headers: { cookie: bob },
      body: body({ project_id: globexProject, region: 'ams1', template: 'k8s-gpu', node_count: free + 1 }),
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('insufficient_capacity');
    expect(res.body.error.available).toBe(free);
  });

  it('Idempotency-Key: a retry gets the same cluster and run; another body with the key is 409', async () => {
    const b = body();
    const key = `idem-${Date.now()}`;
    const first = await rest<Accepted>('POST', '/v1/compute/clusters', {
      headers: { cookie: alice, 'Idempotency-Key': key },
      body: b,
    });
    const second = await rest<Accepted>('POST', '/v1/compute/clusters', {
      headers: { cookie: alice, 'Idempotency-Key': key },
      body: b,
    });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('Location')).toBe(first.headers.get('Location'));
    expect(await primary().cluster.count({ where: { name: b.name } })).toBe(1);
    expect(await primary().workflowRun.count({ where: { clusterId: first.body.cluster.id } })).toBe(1);
    const other = await rest<ErrorOut>('POST', '/v1/compute/clusters', {
      headers: { cookie: alice, 'Idempotency-Key': key },
      body: { ...b, node_count: 2 },
    });
    expect([other.status, other.body.error.code]).toEqual([409, 'conflict']);
  });

  it('an API key creates in its own region without naming it, and is refused another (421)', async () => {
    const key = creds.api_keys.find((k) => k.org === 'globex' && k.region === 'lax1')!.key;
    const auth = { authorization: `Bearer ${key}` };
    const ok = await rest<Accepted>('POST', '/v1/compute/clusters', {
      headers: auth,
      body: body({ project_id: globexProject }),
    });
    expect(ok.status).toBe(202);
    expect(ok.body.cluster.region).toBe('lax1');
    const run = await primary().workflowRun.findUniqueOrThrow({ where: { id: ok.body.run_id } });
    expect((run.input as { requested_by: unknown }).requested_by).toBeNull(); // org-wide notifications
    const wrong = await rest<ErrorOut>('POST', '/v1/compute/clusters', {
      headers: { ...auth, 'X-Region': 'sfo1' },
      body: body({ project_id: globexProject }),
    });
    expect([wrong.status, wrong.body.error.code]).toEqual([421, 'wrong_region']);
  });

  it('the session’s project default region comes first in the cascade', async () => {
    const p = await primary().project.create({
      data: {
        id: `prj_${'P'.repeat(26)}`,
        orgId: (await orgOf('globex')).id,
        name: 'amsterdam',
        defaultRegion: 'ams1',
      },
    });
    const bobId = (await primary().user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
    const cookie = await sessionCookie(bobId, p.orgId, p.id);
    const me = await rest<{ project: { id: string; default_region: string } }>('GET', '/v1/me', {
      headers: { cookie },
    });
    expect(me.body.project).toEqual({ id: p.id, name: 'amsterdam', default_region: 'ams1' });
    const res = await rest<Accepted>('POST', '/v1/compute/clusters', {
      headers: { cookie },
      body: body({ project_id: p.id }),
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('X-Region-Source')).toBe('project-session');
    expect(res.body.cluster.region).toBe('ams1');
  });
});

async function orgOf(slug: string) {
  return primary().organization.findUniqueOrThrow({ where: { slug } });
}

describe('DELETE /v1/compute/clusters/{id} and kubeconfig', () => {
  it('kubeconfig: YAML for a ready cluster (no-store), 409 while pending', async () => {
    const ready = await primary().cluster.findFirstOrThrow({ where: { orgId: acmeId, status: 'ready' } });
    const res = await rest<{ cluster_id: string; kubeconfig: string }>(
      'GET',
      `/v1/compute/clusters/${ready.id}/kubeconfig`,
      { headers: { cookie: alice } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.body.cluster_id).toBe(ready.id);
    expect(res.body.kubeconfig).toContain('kind: Config');
    expect(res.body.kubeconfig).toContain(`.${ready.region}.k8s.meridian.internal:6443`);
    expect(res.body.kubeconfig).toMatch(/token: mkc_[0-9A-Za-z]{12}_[0-9A-Za-z]{43}\n/);
    const created = await rest<Accepted>('POST', '/v1/compute/clusters', { headers: { cookie: alice }, body: body() });
    const pending = await rest<ErrorOut>('GET', `/v1/compute/clusters/${created.body.cluster.id}/kubeconfig`, {
      headers: { cookie: alice, 'X-Meridian-Bookmark': created.headers.get('X-Meridian-Bookmark')! },
    });
    expect([pending.status, pending.body.error.code]).toEqual([409, 'conflict']);
  });

  it('deletes a ready cluster: 202 + run + Location, region from the resource; a second delete is 409', async () => {
    const ready = await primary().cluster.findFirstOrThrow({
      where: { orgId: (await orgOf('globex')).id, status: 'ready', region: 'ams1' },
    });
    const res = await rest<Accepted>('DELETE', `/v1/compute/clusters/${ready.id}`, { headers: { cookie: bob } });
    expect(res.status).toBe(202);
    expect(res.headers.get('X-Region')).toBe('ams1');
    expect(res.headers.get('X-Region-Source')).toBe('resource');
    expect(res.body.cluster.status).toBe('deleting');
    expect(res.headers.get('Location')).toBe(`/v1/workflow-runs/${res.body.run_id}`);
    const run = await primary().workflowRun.findUniqueOrThrow({ where: { id: res.body.run_id } });
    expect([run.kind, run.region, run.status]).toEqual(['delete-cluster', 'ams1', 'queued']);
    const again = await rest<ErrorOut>('DELETE', `/v1/compute/clusters/${ready.id}`, { headers: { cookie: bob } });
    expect([again.status, again.body.error.code]).toEqual([409, 'conflict']);
  });

  it('a cluster still being created can’t be deleted yet (409); an unknown ID is 404', async () => {
    const created = await rest<Accepted>('POST', '/v1/compute/clusters', { headers: { cookie: alice }, body: body() });
    const res = await rest<ErrorOut>('DELETE', `/v1/compute/clusters/${created.body.cluster.id}`, {
      headers: { cookie: alice },
    });
    expect([res.status, res.body.error.code]).toEqual([409, 'conflict']);
    const unknown = await rest<ErrorOut>('DELETE', `/v1/compute/clusters/cls_${'0'.repeat(26)}`, {
      headers: { cookie: bob },
    });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
  });
});

describe('PATCH /v1/projects/{id}', () => {
  it('sets and clears a project’s default region; only the org’s regions', async () => {
    const set = await rest<{ id: string; default_region: string | null }>('PATCH', `/v1/projects/${globexProject}`, {
      headers: { cookie: bob },
      body: { default_region: 'lax1' },
    });
    expect([set.status, set.body.default_region]).toEqual([200, 'lax1']);
    const outside = await rest<ErrorOut>('PATCH', `/v1/projects/${acmeProject}`, {
      headers: { cookie: alice },
      body: { default_region: 'ams1' },
    });
    expect([outside.status, outside.body.error.code]).toEqual([403, 'region_not_allowed']);
    const cleared = await rest<{ default_region: string | null }>('PATCH', `/v1/projects/${globexProject}`, {
      headers: { cookie: bob },
      body: { default_region: null },
    });
    expect([cleared.status, cleared.body.default_region]).toEqual([200, null]);
  });
});

describe('templates, organization, notifications', () => {
  it('GET /v1/compute/templates: every template with free nodes per region of the org', async () => {
    const res = await rest<{ data: { id: string; capacity: Record<string, number>; gpu: boolean }[] }>(
      'GET',
      '/v1/compute/templates',
      { headers: { cookie: bob } },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((t) => t.id)).toEqual(['k8s-small', 'k8s-standard', 'k8s-gpu']);
    for (const t of res.body.data) {
      expect(Object.keys(t.capacity).sort()).toEqual(['ams1', 'lax1', 'sfo1']);
      expect(Object.values(t.capacity).every((n) => Number.isInteger(n) && n >= 0)).toBe(true);
    }
    const gpu = res.body.data.find((t) => t.gpu)!;
    const free = await primary().server.count({ where: { region: 'ams1', status: 'available', gpuCount: { gt: 0 } } });
    expect(gpu.capacity.ams1).toBeLessThanOrEqual(free);
  });

  it('GET /v1/organization: regions, default region and members', async () => {
    const res = await rest<{
      slug: string;
      default_region: string | null;
      allowed_regions: { code: string }[];
      members: { email: string; role: string }[];
      role: string;
    }>('GET', '/v1/organization', { headers: { cookie: alice } });
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe('acme');
    expect(res.body.default_region).toBe('sfo1');
    expect(res.body.allowed_regions.map((r) => r.code)).toEqual(['sfo1']);
    expect(res.body.members).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ email: 'alice@acme.test', role: 'admin' }),
        expect.objectContaining({ email: 'bob@globex.test', role: 'member' }),
      ]),
    );
    expect(res.body.role).toBe('admin');
  });

  it('POST /v1/notifications/read-all marks everything read; the count reads back as 0', async () => {
    const before = await rest<{ unread_count: number }>('GET', '/v1/notifications', { headers: { cookie: alice } });
    expect(before.body.unread_count).toBeGreaterThan(0);
    const res = await rest<{ updated: number; unread_count: number }>('POST', '/v1/notifications/read-all', {
      headers: { cookie: alice },
      body: {},
    });
    expect(res.status).toBe(200);
    expect(res.body.updated).toBe(before.body.unread_count);
    const after = await rest<{ unread_count: number; data: { read: boolean }[] }>('GET', '/v1/notifications', {
      headers: { cookie: alice, 'X-Meridian-Bookmark': res.headers.get('X-Meridian-Bookmark')! },
    });
    expect(after.body.unread_count).toBe(0);
    expect(after.body.data.every((n) => n.read)).toBe(true);
  });

  it('PATCH /v1/me/settings: theme and default region, which then routes the user’s writes', async () => {
    const bobId = (await primary().user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
    const res = await rest<{ theme: string; default_region: string }>('PATCH', '/v1/me/settings', {
      headers: { cookie: bob },
      body: { theme: 'dark', default_region: 'ams1' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ theme: 'dark', default_region: 'ams1' });
    const me = await rest<{ settings: { theme: string } }>('GET', '/v1/me', {
      headers: { cookie: bob, 'X-Meridian-Bookmark': res.headers.get('X-Meridian-Bookmark')! },
    });
    expect(me.body.settings).toEqual({ theme: 'dark', default_region: 'ams1' });
    const created = await rest<Accepted>('POST', '/v1/compute/clusters', {
      headers: { cookie: bob, 'X-Meridian-Bookmark': res.headers.get('X-Meridian-Bookmark')! },
      body: body({ project_id: globexProject }),
    });
    expect(created.status).toBe(202);
    expect(created.body.cluster.region).toBe('ams1');
    expect(created.headers.get('X-Region-Source')).toBe('session');
    await primary().userSettings.update({ where: { userId: bobId }, data: { defaultRegion: null, theme: 'system' } });
    const bad = await rest<ErrorOut>('PATCH', '/v1/me/settings', { headers: { cookie: bob }, body: { theme: 'pink' } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_request']);
  });
});
