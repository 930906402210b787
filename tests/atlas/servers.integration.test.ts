// Atlas servers through the REST door, as an operator, on a real primary + replicas: filters,
// search, sorts and keyset pages checked against the database itself; region scoping by
// header, subdomain and ?region=; 404s; provisioning (202 + Location, 409s, the audit event in
// the same transaction) and the provision-server run driven to its end by the region's worker.
// Customers get 403 and change nothing. Real HTTP through the running server: e2e/atlas-servers.spec.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { waitForReplay } from '../../dev/testing/db';
import type { DemoCredentials } from '../../dev/demo/seed';
import { primary } from '../../server/db/client';
import { startWorkers, type Workers } from '../../server/worker/workers';
import { FAST_WORKFLOWS, setEnv } from '../../dev/testing/workflow-env';

type ServerRow = {
  id: string;
  hostname: string;
  region: string;
  zone: string;
  rack: string;
  status: string;
  created_at: string;
  allocation: { cluster_id: string; cluster_name: string; org_slug: string } | null;
};
type Page = { data: ServerRow[]; next_cursor: string | null; total: number };
type Run = { id: string; kind: string; status: string; region: string; steps: { name: string; status: string }[] };
type Detail = ServerRow & {
  metadata: Record<string, unknown>;
  allocations: { cluster: { id: string } | null; organization: { slug: string } | null; released_at: null }[];
  latest_run: Run | null;
  history: {
    allocations: { id: string; released_at: string }[];
    runs: Run[];
    audit: { action: string; request_id: string; actor: { email: string } }[];
  };
};
type ErrorOut = { error: { code: string; message: string; request_id: string } };

const STATUS_ORDER = ['available', 'provisioning', 'allocated', 'maintenance', 'offline'];

let urls: { primary: string; replicas: Record<string, string> };
let creds: DemoCredentials;
let ops: string;
let opsId: string;
let alice: string;
let workers: Workers | undefined;

const get = <T = Page>(path: string, headers: Record<string, string> = {}, host?: string) =>
  rest<T>('GET', path, { headers: { cookie: ops, ...headers }, host });

/** Every page of a list, following next_cursor. */
async function all(path: string, headers: Record<string, string> = {}): Promise<ServerRow[]> {
  const out: ServerRow[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const res: Awaited<ReturnType<typeof get<Page>>> = await get<Page>(
      `${path}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`,
      headers,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.next_cursor;
    if (!cursor) return out;
  }
  throw new Error('more than 100 pages');
}

async function waitForRun(runId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await primary().workflowRun.findUniqueOrThrow({ where: { id: runId }, include: { steps: true } });
    if (run.status === 'succeeded' || run.status === 'failed') return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A free (unallocated, available) server of a region, by hostname order, skipping `except`. */
async function freeServer(region: string, except: string[] = []) {
  return primary().server.findFirstOrThrow({
    where: { region, status: 'available', id: { notIn: except }, allocations: { none: { releasedAt: null } } },
    orderBy: { hostname: 'desc' },
  });
}

beforeAll(async () => {
  setEnv(FAST_WORKFLOWS);
  ({ urls, credentials: creds } = await useDemoDatabase('atlas_servers'));
  const db = primary();
  opsId = (await db.user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } })).id;
  ops = await sessionCookie(opsId, null);
  const aliceRow = await db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
  const acme = await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } });
  alice = await sessionCookie(aliceRow.id, acme.id);
  for (const url of Object.values(urls.replicas)) await waitForReplay(urls.primary, url);
});

afterEach(async () => {
  await workers?.stop({ graceful: true });
  workers = undefined;
  setEnv(FAST_WORKFLOWS);
});

afterAll(() => setEnv({ WORKFLOW_FAULTS: '' }));

describe('GET /v1/atlas/infrastructure/servers', () => {
  it('lists every region’s servers by hostname, 50 a page, with the total', async () => {
    const res = await get('/v1/atlas/infrastructure/servers');
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Region-Source')).toBe('fan-out');
    expect(res.body.total).toBe(await primary().server.count());
    expect(res.body.data).toHaveLength(50);
    expect(res.body.next_cursor).toEqual(expect.any(String));
    const hostnames = res.body.data.map((s) => s.hostname);
    expect(hostnames).toEqual([...hostnames].sort());
    expect(new Set(res.body.data.map((s) => s.region))).toEqual(new Set(['ams1', 'lax1']));
  });

  it('pages by keyset cursors: every server once, in the database’s own order, for each sort', async () => {
    const db = primary();
    const expected: Record<string, string[]> = {
      'hostname asc': (await db.$queryRaw<{ id: string }[]>`SELECT id FROM servers ORDER BY hostname, id`).map(
        (r) => r.id,
      ),
      'created_at desc': (
        await db.$queryRaw<{ id: string }[]>`SELECT id FROM servers ORDER BY created_at DESC, id DESC`
      ).map((r) => r.id),
      'status asc': (await db.$queryRaw<{ id: string }[]>`SELECT id FROM servers ORDER BY status, id`).map((r) => r.id),
      'region desc': (await db.$queryRaw<{ id: string }[]>`SELECT id FROM servers ORDER BY region DESC, id DESC`).map(
        (r) => r.id,
      ),
    };
    for (const [key, ids] of Object.entries(expected)) {
      const [sort, order] = key.split(' ');
      const rows = await all(`/v1/atlas/infrastructure/servers?sort=${sort}&order=${order}&limit=17`);
      expect(
        rows.map((r) => r.id),
        key,
      ).toEqual(ids);
    }
    const byStatus = await all('/v1/atlas/infrastructure/servers?sort=status&limit=40');
    const ranks = byStatus.map((s) => STATUS_ORDER.indexOf(s.status));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b)); // the enum's order, not the alphabet's
  });

  it('a page is stable while servers change under it (no skip, no repeat)', async () => {
    const first = await get('/v1/atlas/infrastructure/servers?sort=hostname&limit=10');
    // A server sorting before the cursor appears meanwhile: the next page neither repeats nor skips.
    const early = await primary().server.create({
      data: {
        id: 'srv_000000000000000000000early',
        region: 'sfo1',
        hostname: 'aaa-early.metal.meridian.internal',
        zone: 'sfo1-a',
        rack: 'r01',
        cage: 'c1',
        model: 'MX-C1',
        cpuCores: 64,
        memoryGb: 512,
        storageGb: 15360,
      },
    });
    try {
      const second = await get(
        `/v1/atlas/infrastructure/servers?sort=hostname&limit=10&cursor=${first.body.next_cursor}`,
      );
      const ordered = (await primary().server.findMany({ orderBy: { hostname: 'asc' }, select: { id: true } })).map(
        (s) => s.id,
      );
      expect(second.body.data.map((s) => s.id)).toEqual(ordered.slice(11, 21));
    } finally {
      await primary().server.delete({ where: { id: early.id } });
      // The next tests read from the replicas and count on the primary: let them replay the delete.
      for (const url of Object.values(urls.replicas)) await waitForReplay(urls.primary, url);
    }
  });

  it('filters by region, status, zone, rack and allocated-or-free, alone and together', async () => {
    const db = primary();
    const lax1 = await all('/v1/atlas/infrastructure/servers?region=lax1&limit=200');
    expect(lax1).toHaveLength(await db.server.count({ where: { region: 'lax1' } }));
    expect(lax1.every((s) => s.region === 'lax1')).toBe(true);

    const maint = await all('/v1/atlas/infrastructure/servers?status=maintenance');
    expect(maint.length).toBe(await db.server.count({ where: { status: 'maintenance' } }));
    expect(maint.length).toBeGreaterThan(0);
    expect(maint.every((s) => s.status === 'maintenance')).toBe(true);

    const zoneRack = await all('/v1/atlas/infrastructure/servers?zone=ams1-b&rack=r03');
    expect(zoneRack.length).toBe(await db.server.count({ where: { zone: 'ams1-b', rack: 'r03' } }));
    expect(zoneRack.every((s) => s.zone === 'ams1-b' && s.rack === 'r03')).toBe(true);

    const liveAllocs = await db.allocation.findMany({ where: { releasedAt: null }, include: { cluster: true } });
    expect(liveAllocs.length).toBeGreaterThan(0);
    const allocated = await all('/v1/atlas/infrastructure/servers?allocation=allocated');
    expect(allocated.map((s) => s.id).sort()).toEqual(liveAllocs.map((a) => a.serverId).sort());
    for (const s of allocated) {
      const a = liveAllocs.find((x) => x.serverId === s.id)!;
      expect(s.allocation).toMatchObject({ cluster_id: a.clusterId, cluster_name: a.cluster.name });
    }
    const free = await all('/v1/atlas/infrastructure/servers?allocation=free&limit=200');
    expect(free.length + allocated.length).toBe(await db.server.count());
    expect(free.every((s) => s.allocation === null)).toBe(true);

    const combo = await get('/v1/atlas/infrastructure/servers?region=sfo1&status=available&allocation=free&limit=200');
    const want = await db.server.count({
      where: { region: 'sfo1', status: 'available', allocations: { none: { releasedAt: null } } },
    });
    expect(combo.body.total).toBe(want);
    expect(combo.body.data).toHaveLength(want);
  });

  it('searches by hostname part or by ID; LIKE wildcards match only themselves', async () => {
    const part = await all('/v1/atlas/infrastructure/servers?q=LAX1-01');
    expect(part.map((s) => s.hostname).sort()).toEqual(
      (await primary().server.findMany({ where: { hostname: { contains: 'lax1-01', mode: 'insensitive' } } }))
        .map((s) => s.hostname)
        .sort(),
    );
    expect(part.length).toBe(10);
    const one = await primary().server.findFirstOrThrow({ where: { region: 'ams1' } });
    const byId = await get(`/v1/atlas/infrastructure/servers?q=${one.id}`);
    expect(byId.body.data.map((s) => s.id)).toEqual([one.id]);
    const byIdStart = await get(`/v1/atlas/infrastructure/servers?q=${one.id.slice(0, 20)}`);
    expect(byIdStart.body.data.map((s) => s.id)).toContain(one.id);
    for (const wild of ['%25', '_', '%5C']) {
      const res = await get(`/v1/atlas/infrastructure/servers?q=${wild}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(0);
    }
  });

  it('is scoped to the region the request names: X-Region, subdomain; ?region= also filters', async () => {
    const byHeader = await all('/v1/atlas/infrastructure/servers?limit=200', { 'x-region': 'ams1' });
    expect(byHeader.length).toBe(await primary().server.count({ where: { region: 'ams1' } }));
    expect(byHeader.every((s) => s.region === 'ams1')).toBe(true);
    const head = await get('/v1/atlas/infrastructure/servers', { 'x-region': 'ams1' });
    expect([head.headers.get('X-Region'), head.headers.get('X-Region-Source')]).toEqual(['ams1', 'header']);
    expect(head.headers.get('X-Meridian-Served-By')).toBe('replica:ams1');

    const bySubdomain = await get('/v1/atlas/infrastructure/servers?limit=200', {}, 'lax1.localhost:3000');
    expect(bySubdomain.status).toBe(200);
    expect(bySubdomain.headers.get('X-Region-Source')).toBe('subdomain');
    expect(bySubdomain.body.total).toBe(await primary().server.count({ where: { region: 'lax1' } }));
    expect(bySubdomain.body.data.every((s) => s.region === 'lax1')).toBe(true);

    // The scope and the filter together: a region named twice, differently, matches nothing.
    const both = await get('/v1/atlas/infrastructure/servers?region=lax1', { 'x-region': 'ams1' });
    expect([both.status, both.body.total]).toEqual([200, 0]);
  });

  it('an explicit region that is malformed or unknown is 400 invalid_region, by every door', async () => {
    for (const [path, headers, host] of [
      ['/v1/atlas/infrastructure/servers', { 'x-region': 'NOPE' }, undefined],
      ['/v1/atlas/infrastructure/servers', { 'x-region': 'zzz9' }, undefined],
      ['/v1/atlas/infrastructure/servers?region=bad!', {}, undefined],
      ['/v1/atlas/infrastructure/servers?region=zzz9', {}, undefined],
      ['/v1/atlas/infrastructure/servers', {}, 'zzz9.localhost:3000'],
    ] as [string, Record<string, string>, string | undefined][]) {
      const res = await get<ErrorOut>(path, headers, host);
      expect([res.status, res.body.error?.code], `${path} ${JSON.stringify(headers)} ${host}`).toEqual([
        400,
        'invalid_region',
      ]);
    }
    // tRPC (the browser's door) carries the filter in its input: checked too.
    const { api } = callerFor({ headers: { cookie: ops } });
    const err = await api.atlas.servers.list({ region: 'zzz9' } as never).catch((e: unknown) => e);
    expect((err as { cause: { code: string } }).cause.code).toBe('invalid_region');
  });

  it('rejects bad input with 400 invalid_request, never a 500', async () => {
    const first = await get('/v1/atlas/infrastructure/servers?sort=hostname&limit=5');
    for (const q of [
      `sort=created_at&cursor=${first.body.next_cursor}`, // a cursor of another order
      'cursor=not-a-cursor',
      `cursor=${Buffer.from('["hostname","asc","x","srv_\' OR 1=1"]').toString('base64url')}`,
      `sort=status&cursor=${Buffer.from('["status","asc","bogus","srv_00000000000000000000000000"]').toString('base64url')}`,
      'sort=password',
      'order=sideways',
      'status=exploded',
      'allocation=maybe',
      'limit=0',
      'limit=201',
      `q=${'x'.repeat(101)}`,
    ]) {
      const res = await get<ErrorOut>(`/v1/atlas/infrastructure/servers?${q}`);
      expect([res.status, res.body.error?.code], q).toEqual([400, 'invalid_request']);
    }
  });
  it('hostile values in every parameter are a 4xx with the contract’s body, never a 5xx', async () => {
    const nasty = [
      '%00',
      'a%00b',
      '%ED%A0%80',
      '%E0%A4%A',
      '%25',
      "'%20OR%201=1--",
      '%F0%9F%92%A5',
      'x'.repeat(64),
      '..%2F..',
    ];
    const params = ['q', 'zone', 'rack', 'region', 'status', 'sort', 'order', 'allocation', 'cursor', 'limit'];
    for (const param of params) {
      for (const v of nasty) {
        const res = await get<ErrorOut & Partial<Page>>(`/v1/atlas/infrastructure/servers?${param}=${v}`);
        expect(res.status, `${param}=${v} ${JSON.stringify(res.body)}`).toBeLessThan(500);
        if (res.status >= 400) expect(res.body.error.request_id, `${param}=${v}`).toMatch(/^req_/);
      }
    }
    for (const v of nasty) {
      for (const path of [`/v1/atlas/infrastructure/servers/${v}`, `/v1/atlas/infrastructure/servers/${v}/runs/${v}`]) {
        const res = await get<ErrorOut>(path);
        expect(res.status, path).toBeGreaterThanOrEqual(400);
        expect(res.status, path).toBeLessThan(500);
      }
      const post = await rest<ErrorOut>('POST', `/v1/atlas/infrastructure/servers/${v}/provision`, {
        headers: { cookie: ops },
        body: {},
      });
      expect([400, 404], v).toContain(post.status);
    }
  });
});

describe('GET /v1/atlas/infrastructure/servers/{id}', () => {
  it('shows placement, hardware, the current allocation with its cluster and organization', async () => {
    const alloc = await primary().allocation.findFirstOrThrow({
      where: { releasedAt: null },
      include: { cluster: { include: { organization: true } }, server: true },
    });
    const res = await get<Detail>(`/v1/atlas/infrastructure/servers/${alloc.serverId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: alloc.serverId,
      hostname: alloc.server.hostname,
      region: alloc.server.region,
      zone: alloc.server.zone,
      rack: alloc.server.rack,
      cage: alloc.server.cage,
      status: 'allocated',
      cpu_cores: alloc.server.cpuCores,
      allocation: { cluster_id: alloc.clusterId, org_slug: alloc.cluster.organization.slug },
    });
    expect(res.body.metadata).toMatchObject({ serial: expect.any(String) });
    expect(res.body.allocations).toHaveLength(1);
    expect(res.body.allocations[0]).toMatchObject({
      cluster: { id: alloc.clusterId },
      organization: { slug: alloc.cluster.organization.slug },
      released_at: null,
    });
  });

  it('keeps past allocations in the history, newest first', async () => {
    const srv = await freeServer('ams1');
    const cluster = await primary().cluster.findFirstOrThrow({ where: { region: 'ams1' } });
    const made = [];
    for (const [i, days] of [3, 1].entries()) {
      made.push(
        await primary().allocation.create({
          data: {
            id: `alloc_00000000000000000000000${i}hx`,
            serverId: srv.id,
            clusterId: cluster.id,
            role: 'worker',
            createdAt: new Date(Date.now() - days * 86_400_000),
            releasedAt: new Date(Date.now() - days * 86_400_000 + 3_600_000),
          },
        }),
      );
    }
    const res = await get<Detail>(`/v1/atlas/infrastructure/servers/${srv.id}`);
    expect(res.body.allocations).toEqual([]);
    expect(res.body.allocation).toBeNull();
    expect(res.body.history.allocations.map((a) => a.id)).toEqual([made[1]!.id, made[0]!.id]);
  });

  it('an unknown or malformed ID is 404 not_found; so is a server outside the named region', async () => {
    for (const id of ['srv_00000000000000000000000000', 'nope', 'cls_00000000000000000000000000', '%27--']) {
      const res = await get<ErrorOut>(`/v1/atlas/infrastructure/servers/${id}`);
      expect([res.status, res.body.error.code], id).toEqual([404, 'not_found']);
    }
    const lax = await primary().server.findFirstOrThrow({ where: { region: 'lax1' } });
    const elsewhere = await get<ErrorOut>(`/v1/atlas/infrastructure/servers/${lax.id}`, { 'x-region': 'ams1' });
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([404, 'not_found']);
    expect((await get(`/v1/atlas/infrastructure/servers/${lax.id}`, { 'x-region': 'lax1' })).status).toBe(200);
  });
});

describe('POST /v1/atlas/infrastructure/servers/{id}/provision', () => {
  it('202 with the run and its Location; audited in the same transaction; the region’s worker runs it to available', async () => {
    const srv = await freeServer('lax1');
    const res = await rest<{ server: ServerRow; run_id: string; run: Run }>(
      'POST',
      `/v1/atlas/infrastructure/servers/${srv.id}/provision`,
      { headers: { cookie: ops }, body: {} },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.run_id).toMatch(/^run_[0-9A-Za-z]{26}$/);
    expect(res.headers.get('location')).toBe(`/v1/atlas/infrastructure/servers/${srv.id}/runs/${res.body.run_id}`);
    expect([res.headers.get('X-Region'), res.headers.get('X-Region-Source')]).toEqual(['lax1', 'resource']);
    expect(res.body.server).toMatchObject({ id: srv.id, status: 'provisioning' });
    expect(res.body.run).toMatchObject({
      id: res.body.run_id,
      kind: 'provision-server',
      status: 'queued',
      region: 'lax1',
    });
    expect(res.body.run.steps.map((s) => s.name)).toEqual([
      'power_on',
      'update_firmware',
      'install_image',
      'burn_in',
      'join_pool',
    ]);

    const audit = await primary().auditEvent.findMany({ where: { targetType: 'server', targetId: srv.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'operator.server.provision',
      actorId: opsId,
      region: 'lax1',
      orgId: null,
      requestId: res.headers.get('X-Request-Id'),
    });
    expect(audit[0]!.metadata).toMatchObject({ from: 'available', run_id: res.body.run_id });
    const run0 = await primary().workflowRun.findUniqueOrThrow({ where: { id: res.body.run_id } });
    expect(run0.serverId).toBe(srv.id);
    expect(run0.orgId).toBeNull();

    // Provisioning already: a second request is a conflict that says so, and changes nothing.
    const again = await rest<ErrorOut>('POST', `/v1/atlas/infrastructure/servers/${srv.id}/provision`, {
      headers: { cookie: ops },
      body: {},
    });
    expect([again.status, again.body.error.code]).toEqual([409, 'conflict']);
    expect(again.body.error.message).toMatch(/already provisioning \(run run_/);
    expect(await primary().workflowRun.count({ where: { serverId: srv.id } })).toBe(1);

    // Only lax1's worker takes lax1's runs: another region's worker leaves it queued.
    workers = await startWorkers({ connectionString: urls.primary, regions: ['sfo1'] });
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await primary().workflowRun.findUniqueOrThrow({ where: { id: res.body.run_id } })).status).toBe('queued');
    await workers.stop({ graceful: true });
    workers = await startWorkers({ connectionString: urls.primary, regions: ['lax1'] });

    // The run as operators follow it (the Location), while it goes.
    const location = res.headers.get('location')!;
    let sawRunning = false;
    // Until the run ends (a deadline, not a count of polls: a loaded machine may start it late).
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      const live = await get<Run>(location);
      expect(live.status).toBe(200);
      if (live.body.status === 'running') sawRunning = true;
      if (live.body.status === 'succeeded' || live.body.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(sawRunning).toBe(true);
    const run = await waitForRun(res.body.run_id);
    expect(run.status, run.error ?? '').toBe('succeeded');
    expect(run.steps.every((s) => s.status === 'succeeded' && s.attempts === 1)).toBe(true);
    const after = await primary().server.findUniqueOrThrow({ where: { id: srv.id } });
    expect(after.status).toBe('available');
    expect(after.metadata).toMatchObject({ os_image: 'meridian-node-2026.11', provisioned_by_run: run.id });

    await waitForReplay(urls.primary, urls.replicas.lax1!); // read on lax1's replica, as its gateway would
    const detail = await get<Detail>(`/v1/atlas/infrastructure/servers/${srv.id}`, { 'x-region': 'lax1' });
    expect(detail.body.status).toBe('available');
    expect(detail.body.latest_run).toMatchObject({ id: run.id, status: 'succeeded' });
    expect(detail.body.history.runs.map((r) => r.id)).toEqual([run.id]);
    expect(detail.body.history.audit).toMatchObject([
      { action: 'operator.server.provision', actor: { email: 'ops@meridian.test' } },
    ]);
    // No organization hears about an operator's run.
    expect(await primary().notification.count({ where: { resourceId: srv.id } })).toBe(0);
  });

  it('retries a failing step; a run that gives up leaves the server in maintenance', async () => {
    const srv = await freeServer('ams1');
    setEnv({
      WORKFLOW_FAULTS: 'update_firmware:1,burn_in:99',
      WORKFLOW_RETRY_LIMIT: '1',
      WORKFLOW_RETRY_DELAY_SECONDS: '0',
    });
    const res = await rest<{ run_id: string }>('POST', `/v1/atlas/infrastructure/servers/${srv.id}/provision`, {
      headers: { cookie: ops },
      body: {},
    });
    expect(res.status).toBe(202);
    workers = await startWorkers({ connectionString: urls.primary, regions: ['ams1'] });
    const run = await waitForRun(res.body.run_id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^burn_in: .*gave up after 2 attempts/);
    const steps = [...run.steps].sort((a, b) => a.position - b.position);
    expect(steps.map((s) => [s.name, s.status, s.attempts])).toEqual([
      ['power_on', 'succeeded', 1],
      ['update_firmware', 'succeeded', 2],
      ['install_image', 'succeeded', 1],
      ['burn_in', 'failed', 2],
      ['join_pool', 'skipped', 0],
    ]);
    expect((await primary().server.findUniqueOrThrow({ where: { id: srv.id } })).status).toBe('maintenance');
  });

  it('several operators at once: exactly one provisioning starts, the others get 409', async () => {
    const srv = await freeServer('sfo1');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        rest<ErrorOut>('POST', `/v1/atlas/infrastructure/servers/${srv.id}/provision`, {
          headers: { cookie: ops },
          body: {},
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409, 409, 409, 409]);
    expect(await primary().workflowRun.count({ where: { serverId: srv.id } })).toBe(1);
    expect(await primary().auditEvent.count({ where: { targetId: srv.id } })).toBe(1);
    // The run stays queued (no sfo1 worker runs here): the server stays out of the pool meanwhile.
    expect((await primary().server.findUniqueOrThrow({ where: { id: srv.id } })).status).toBe('provisioning');
  });

  it('an allocated server is a 409 conflict naming its cluster; nothing is started or audited', async () => {
    const alloc = await primary().allocation.findFirstOrThrow({
      where: { releasedAt: null },
      include: { cluster: { include: { organization: true } } },
    });
    const res = await rest<ErrorOut>('POST', `/v1/atlas/infrastructure/servers/${alloc.serverId}/provision`, {
      headers: { cookie: ops },
      body: {},
    });
    expect([res.status, res.body.error.code]).toEqual([409, 'conflict']);
    expect(res.body.error.message).toContain(
      `allocated to cluster ${alloc.cluster.name} (${alloc.cluster.organization.slug})`,
    );
    expect((await primary().server.findUniqueOrThrow({ where: { id: alloc.serverId } })).status).toBe('allocated');
    expect(await primary().workflowRun.count({ where: { serverId: alloc.serverId } })).toBe(0);
    expect(await primary().auditEvent.count({ where: { targetId: alloc.serverId } })).toBe(0);
  });

  it('an unknown server is 404, a malformed ID 400 invalid_request, another region’s 404', async () => {
    const unknown = await rest<ErrorOut>(
      'POST',
      '/v1/atlas/infrastructure/servers/srv_00000000000000000000000000/provision',
      {
        headers: { cookie: ops },
        body: {},
      },
    );
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
    const malformed = await rest<ErrorOut>('POST', '/v1/atlas/infrastructure/servers/nope/provision', {
      headers: { cookie: ops },
      body: {},
    });
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'invalid_request']);
    const srv = await freeServer('sfo1');
    const elsewhere = await rest<ErrorOut>('POST', `/v1/atlas/infrastructure/servers/${srv.id}/provision`, {
      headers: { cookie: ops, 'x-region': 'lax1' },
      body: {},
    });
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([404, 'not_found']);
    expect((await primary().server.findUniqueOrThrow({ where: { id: srv.id } })).status).toBe('available');
  });

  it('a run of another server, or a malformed run ID, is 404', async () => {
    const run = await primary().workflowRun.findFirstOrThrow({ where: { serverId: { not: null } } });
    const other = await freeServer('sfo1');
    for (const path of [
      `/v1/atlas/infrastructure/servers/${other.id}/runs/${run.id}`,
      `/v1/atlas/infrastructure/servers/${run.serverId}/runs/nope`,
    ]) {
      const res = await get<ErrorOut>(path);
      expect([res.status, res.body.error.code], path).toEqual([404, 'not_found']);
    }
    // A cluster's run is not a server's.
    const clusterRun = await primary().workflowRun.findFirstOrThrow({ where: { clusterId: { not: null } } });
    const res = await get<ErrorOut>(`/v1/atlas/infrastructure/servers/${run.serverId}/runs/${clusterRun.id}`);
    expect(res.status).toBe(404);
  });
});

describe('customers', () => {
  it('get 403 forbidden on every server route, and change nothing', async () => {
    const srv = await freeServer('sfo1');
    const key = creds.api_keys.find((k) => k.org === 'globex' && k.region === 'sfo1')!.key;
    for (const [method, path] of [
      ['GET', '/v1/atlas/infrastructure/servers'],
      ['GET', `/v1/atlas/infrastructure/servers/${srv.id}`],
      ['GET', '/v1/atlas/infrastructure/servers/srv_00000000000000000000000000'],
      ['POST', `/v1/atlas/infrastructure/servers/${srv.id}/provision`],
    ]) {
      for (const headers of [{ cookie: alice }, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
        const res = await rest<ErrorOut>(method!, path!, { headers, body: method === 'POST' ? {} : undefined });
        expect([res.status, res.body.error.code], `${method} ${path}`).toEqual([403, 'forbidden']);
      }
    }
    expect((await primary().server.findUniqueOrThrow({ where: { id: srv.id } })).status).toBe('available');
    expect(await primary().auditEvent.count({ where: { targetId: srv.id } })).toBe(0);
  });
});
