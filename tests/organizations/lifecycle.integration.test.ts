// The workspace lifecycle over real HTTP (a loopback server in front of the API door and the
// directory's look-up, the directory itself behind its own loopback server, real workflow
// workers): create → found at the global address in its home region; a slug taken elsewhere,
// or a create failing mid-way, leaves nothing behind; suspend and reactivate are audited;
// offboarding is read-only at once, deletes clusters through their runs, is cancellable, and
// purges after the grace period, freeing the slug (docs/flows/workspace-lifecycle.md).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { FAST_WORKFLOWS, setEnv } from '../../dev/testing/workflow-env';
import { handleRest } from '../../server/api/adapters/rest';
import { checkCredentials } from '../../server/auth/sign-in';
import { releaseSlug, reserveSlug } from '../../server/cell/workspaces';
import { primary } from '../../server/db/client';
import { newId } from '../../server/ids';
import { serveApi } from '../../server/http/api-door';
import { PEER_HEADER } from '../../server/net/client-address';
import { sweepOffboarding } from '../../server/organizations/offboarding';
import { startWorkers, type Workers } from '../../server/worker/workers';
import { registeredCell } from '../directory/harness';
import { checkRaw } from '../../dev/testing/contract';

let server: http.Server;
let base: string;
let directory: Awaited<ReturnType<typeof registeredCell>>;
let workers: Workers;
let ops: string;

type Handler = (req: Request) => Promise<Response>;

interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: T & { error?: { code: string; message: string; region?: string } };
}

async function gateway(): Promise<http.Server> {
  const resolve = (await import('../../app/api/v1/directory/resolve/route')).POST as Handler;
  return http.createServer((req, res) => {
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? '';
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!req.url?.startsWith('/api/v1/directory/resolve')) return void serveApi(req, res, handleRest, body);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      void resolve(
        new Request(`http://${req.headers.host}${req.url}`, {
          method: 'POST',
          headers,
          body: body.length ? body : undefined,
        }),
      ).then(async (r) => {
        res.writeHead(r.status, Object.fromEntries(new Headers(r.headers)));
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
}

/** A request to the gateway as if sent to `host` (`localhost`: the global address; `sfo1.localhost`: a region). */
function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  o: { host?: string; cookie?: string; key?: string; body?: unknown; bookmark?: string } = {},
): Promise<Answer<T>> {
  const port = new URL(base).port;
  const host = `${o.host ?? 'localhost'}:${port}`;
  const text = o.body === undefined ? undefined : JSON.stringify(o.body);
  return new Promise((ok, fail) => {
    const r = http.request(
      `${base}${path}`,
      {
        method,
        headers: {
          host,
          ...(text ? { 'content-type': 'application/json' } : {}),
          ...(o.cookie ? { cookie: o.cookie, origin: `http://${host}` } : {}),
          ...(o.key ? { authorization: `Bearer ${o.key}` } : {}),
          ...(o.bookmark ? { 'x-meridian-bookmark': o.bookmark } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const t = Buffer.concat(chunks).toString('utf8');
          try {
            checkRaw(method, path, res.statusCode ?? 0, res.headers, t);
          } catch (e) {
            fail(e);
            return;
          }
          ok({ status: res.statusCode ?? 0, headers: res.headers, body: t ? JSON.parse(t) : {} });
        });
      },
    );
    r.on('error', fail);
    r.end(text);
  });
}

const lookUp = (slug: string) => call<{ region: string }>('POST', '/api/v1/directory/resolve', { body: { slug } });
const directoryRow = (slug: string) => primary().directoryWorkspace.findUnique({ where: { slug } });

interface Created {
  organization: { id: string; slug: string; status: string; allowed_regions: string[]; default_region: string | null };
  first_admin: { user_id: string; existing_user: boolean; setup_link: { url: string; expires_at: string } | null };
}

const create = (body: Record<string, unknown>) =>
  call<Created>('POST', '/v1/atlas/organizations', { cookie: ops, body });

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 30_000): Promise<T> {
  const t = Date.now();
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() - t > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  setEnv({ ...FAST_WORKFLOWS, MERIDIAN_OFFBOARDING_GRACE_SECONDS: '3', MERIDIAN_SIGNUP: 'on' });
  const { urls } = await useDemoDatabase('lifecycle');
  directory = await registeredCell();
  workers = await startWorkers({ connectionString: urls.primary, regions: ['sfo1', 'lax1', 'ams1'] });
  const opsUser = await primary().user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } });
  ops = await sessionCookie(opsUser.id, null);
  server = await gateway();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await workers?.stop();
  await new Promise<void>((ok) => server?.close(() => ok()));
  await directory?.close();
});

describe('creating an organization', () => {
  it('an operator creates one: found at the global address in its home region, its admin sets a password there once', async () => {
    const res = await create({
      slug: 'initech',
      name: 'Initech',
      home_region: 'lax1',
      allowed_regions: ['ams1', 'lax1'],
      admin_email: 'Peter@Initech.test',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.location).toBe(`/v1/atlas/organizations/${res.body.organization.id}`);
    expect(res.body.organization).toMatchObject({
      slug: 'initech',
      status: 'active',
      allowed_regions: ['ams1', 'lax1'],
    });
    expect(res.body.organization.default_region).toBeNull();
    expect(res.body.first_admin.existing_user).toBe(false);
    const link = new URL(res.body.first_admin.setup_link!.url);
    expect(link.origin).toBe('http://lax1.localhost:3000');
    const token = link.searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The directory sends people to lax1; the routing policy and the audit event exist.
    expect((await lookUp('initech')).body.region).toBe('lax1');
    expect(await directoryRow('initech')).toMatchObject({ region: 'lax1', status: 'active' });
    const orgId = res.body.organization.id;
    expect(await primary().routingPolicy.count({ where: { orgId } })).toBe(1);
    const audit = await primary().auditEvent.findFirstOrThrow({ where: { action: 'operator.organization.create' } });
    expect(audit).toMatchObject({ targetId: orgId, region: 'lax1' });

    // Only the token's hash is at rest; the user has no password yet and cannot sign in.
    const rows = await primary().passwordSetupLink.findMany({ where: { orgId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(token);
    const user = await primary().user.findUniqueOrThrow({ where: { email: 'peter@initech.test' } });
    expect(user.passwordHash).toBeNull();
    expect(await checkCredentials({ email: 'peter@initech.test', password: 'x'.repeat(20) }, '192.0.2.10')).toBeNull();

    // Never at the global address; at another region, 421 naming lax1; at lax1, once.
    const body = { token, password: 'correct horse battery staple' };
    const atGlobal = await call('POST', '/v1/password-setup', { body });
    expect([atGlobal.status, atGlobal.body.error?.code]).toEqual([421, 'wrong_region']);
    const elsewhere = await call('POST', '/v1/password-setup', { host: 'sfo1.localhost', body });
    expect([elsewhere.status, elsewhere.body.error?.region]).toEqual([421, 'lax1']);
    const short = await call('POST', '/v1/password-setup', {
      host: 'lax1.localhost',
      body: { token, password: 'short' },
    });
    expect([short.status, short.body.error?.code]).toEqual([400, 'invalid_request']);
    const set = await call<{ workspace: string; sign_in_url: string }>('POST', '/v1/password-setup', {
      host: 'lax1.localhost',
      body,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.sign_in_url).toBe('http://lax1.localhost:3000/sign-in?workspace=initech');
    const again = await call('POST', '/v1/password-setup', { host: 'lax1.localhost', body });
    expect([again.status, again.body.error?.code]).toEqual([404, 'not_found']);
    expect(await primary().passwordSetupLink.count({ where: { orgId } })).toBe(0);
    const signedIn = await checkCredentials(
      { email: 'peter@initech.test', password: body.password, workspace: 'initech' },
      '192.0.2.11',
    );
    expect(signedIn).toMatchObject({ id: user.id, orgId });
  });

  it('an existing user becomes the admin, with no link', async () => {
    const res = await create({ slug: 'hooli', name: 'Hooli', home_region: 'sfo1', admin_email: 'bob@globex.test' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.first_admin).toMatchObject({ existing_user: true, setup_link: null });
    expect(res.body.organization.default_region).toBe('sfo1'); // single-region: its home is its default
    const bob = await primary().user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } });
    const m = await primary().membership.findUniqueOrThrow({
      where: { userId_orgId: { userId: bob.id, orgId: res.body.organization.id } },
    });
    expect(m.role).toBe('admin');
  });

  it('a slug taken in another region is 409 slug_taken, and nothing is left behind', async () => {
    const orgsBefore = await primary().organization.count();
    // globex lives in sfo1; ams1's cell cannot take its slug.
    const taken = await create({ slug: 'globex', name: 'Copycat', home_region: 'ams1', admin_email: 'x@copy.test' });
    expect([taken.status, taken.body.error?.code]).toEqual([409, 'slug_taken']);
    expect(await directoryRow('globex')).toMatchObject({ region: 'sfo1', status: 'active' });
    // A slug only reserved by another region (its create under way there) is taken too.
    await reserveSlug('lax1', 'vandelay');
    const reserved = await create({ slug: 'vandelay', name: 'Vandelay', home_region: 'ams1', admin_email: 'a@v.test' });
    expect([reserved.status, reserved.body.error?.code]).toEqual([409, 'slug_taken']);
    expect(await directoryRow('vandelay')).toMatchObject({ region: 'lax1', status: 'reserved' });
    await releaseSlug('lax1', 'vandelay');
    expect(await primary().organization.count()).toBe(orgsBefore);
    expect(await primary().user.count({ where: { email: { in: ['x@copy.test', 'a@v.test'] } } })).toBe(0);
  });

  it('a second create of a slug its region holds is 409, and the directory still finds the first', async () => {
    // hooli (created above, homed in sfo1) is active in the directory; sfo1 asking again for its
    // slug gets the reservation it holds, then the insert's unique slug refuses: nothing released.
    expect(await directoryRow('hooli')).toMatchObject({ region: 'sfo1', status: 'active' });
    const again = await create({ slug: 'hooli', name: 'Hooli 2', home_region: 'sfo1', admin_email: 'h2@hooli.test' });
    expect([again.status, again.body.error?.code]).toEqual([409, 'slug_taken']);
    expect(await directoryRow('hooli')).toMatchObject({ region: 'sfo1', status: 'active' });
    const kinds = await primary().directoryEvent.findMany({ where: { slug: 'hooli' }, orderBy: { sequence: 'asc' } });
    expect(kinds.map((e) => e.kind)).not.toContain('released');
  });

  it('a create that fails after the reservation releases the slug (a real unique violation)', async () => {
    // An organization the directory does not know (written straight into the database): the
    // reservation succeeds, the insert then hits organizations' unique slug.
    await primary().organization.create({ data: { id: newId('org'), slug: 'ghost', name: 'Ghost' } });
    const res = await create({ slug: 'ghost', name: 'Ghost 2', home_region: 'sfo1', admin_email: 'g@ghost.test' });
    expect([res.status, res.body.error?.code]).toEqual([409, 'slug_taken']);
    expect(await directoryRow('ghost')).toBeNull();
    expect(await primary().user.count({ where: { email: 'g@ghost.test' } })).toBe(0);
    const events = await primary().directoryEvent.findMany({ where: { slug: 'ghost' }, orderBy: { sequence: 'asc' } });
    expect(events.map((e) => e.kind)).toEqual(['reserved', 'released']);
    // An unknown region is refused before anything is reserved.
    const unknown = await create({ slug: 'nowhere', name: 'Nowhere', home_region: 'zzz9', admin_email: 'n@n.test' });
    expect([unknown.status, unknown.body.error?.code]).toEqual([400, 'invalid_region']);
    expect(await directoryRow('nowhere')).toBeNull();
  });

  it('refuses customers: an org admin gets 403 and nothing is created', async () => {
    const alice = await primary().user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
    const acme = await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } });
    const cookie = await sessionCookie(alice.id, acme.id);
    const res = await call('POST', '/v1/atlas/organizations', {
      cookie,
      body: { slug: 'sneaky', name: 'Sneaky', home_region: 'sfo1', admin_email: 'alice@acme.test' },
    });
    expect([res.status, res.body.error?.code]).toEqual([403, 'forbidden']);
    expect(await directoryRow('sneaky')).toBeNull();
  });
});

describe('suspend and reactivate', () => {
  it('are audited with their reason; a reason is required', async () => {
    const hooli = await primary().organization.findUniqueOrThrow({ where: { slug: 'hooli' } });
    const path = `/v1/atlas/organizations/${hooli.id}`;
    const noReason = await call('POST', `${path}/suspend`, { cookie: ops, body: {} });
    expect([noReason.status, noReason.body.error?.code]).toEqual([400, 'invalid_request']);
    const suspended = await call<{ status: string }>('POST', `${path}/suspend`, {
      cookie: ops,
      body: { reason: 'unpaid invoices' },
    });
    expect([suspended.status, suspended.body.status]).toEqual([200, 'suspended']);
    expect(await directoryRow('hooli')).toMatchObject({ status: 'reserved' });
    const back = await call<{ status: string }>('POST', `${path}/reactivate`, {
      cookie: ops,
      body: { reason: 'paid' },
    });
    expect([back.status, back.body.status]).toEqual([200, 'active']);
    expect(await directoryRow('hooli')).toMatchObject({ status: 'active' });
    const events = await primary().auditEvent.findMany({
      where: { targetId: hooli.id, action: { startsWith: 'operator.organization.' } },
      orderBy: { createdAt: 'asc' },
    });
    expect(events.map((e) => [e.action, (e.metadata as { reason?: string }).reason])).toEqual([
      ['operator.organization.create', undefined],
      ['operator.organization.suspend', 'unpaid invoices'],
      ['operator.organization.reinstate', 'paid'],
    ]);
  });
});

describe('offboarding', () => {
  let org: Created['organization'];
  let admin: string;

  beforeAll(async () => {
    const res = await create({ slug: 'umbrella', name: 'Umbrella', home_region: 'sfo1', admin_email: 'wesker@u.test' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    org = res.body.organization;
    admin = await sessionCookie(res.body.first_admin.user_id, org.id);
    // The forged session has no bookmark of its own: the create's makes sfo1 read the new admin.
    const project = await call<{ id: string }>('POST', '/v1/projects', {
      host: 'sfo1.localhost',
      cookie: admin,
      body: { name: 'labs' },
      bookmark: res.headers['x-meridian-bookmark'] as string,
    });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const cluster = await call<{ cluster: { id: string } }>('POST', '/v1/compute/clusters', {
      host: 'sfo1.localhost',
      cookie: admin,
      body: { name: 'hive', project_id: project.body.id, template: 'k8s-small', node_count: 1 },
      bookmark: project.headers['x-meridian-bookmark'] as string,
    });
    expect(cluster.status, JSON.stringify(cluster.body)).toBe(202);
    await until(
      'the cluster to be ready',
      async () =>
        (await primary().cluster.findUniqueOrThrow({ where: { id: cluster.body.cluster.id } })).status === 'ready',
    );
  }, 60_000);

  it('needs the slug typed; then read-only at once, clusters deleted by their runs, cancellable', async () => {
    const wrong = await call('POST', '/v1/organization/offboard', {
      host: 'sfo1.localhost',
      cookie: admin,
      body: { confirm: 'umbrela' },
    });
    expect([wrong.status, wrong.body.error?.code]).toEqual([400, 'invalid_request']);

    const res = await call<{
      status: string;
      purge_after: string;
      clusters_deleting: { id: string; run_id: string }[];
    }>('POST', '/v1/organization/offboard', { host: 'sfo1.localhost', cookie: admin, body: { confirm: 'umbrella' } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.status).toBe('offboarding');
    expect(res.body.clusters_deleting).toHaveLength(1);
    const runs = await primary().workflowRun.findMany({
      where: { id: res.body.clusters_deleting[0]!.run_id },
      select: { kind: true },
    });
    expect(runs).toEqual([{ kind: 'delete-cluster' }]);

    // Writes refused with the stable code at once; reads go on.
    const write = await call('POST', '/v1/projects', { host: 'sfo1.localhost', cookie: admin, body: { name: 'more' } });
    expect([write.status, write.body.error?.code]).toEqual([409, 'organization_offboarding']);
    // A client that sends the offboarding's bookmark back reads it, from any replica.
    const read = await call<{ status: string; purge_after: string }>('GET', '/v1/organization', {
      host: 'sfo1.localhost',
      cookie: admin,
      bookmark: res.headers['x-meridian-bookmark'] as string,
    });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: 'offboarding', purge_after: res.body.purge_after });

    await until('the cluster deleted by its run', async () => {
      const c = await primary().cluster.findMany({ where: { orgId: org.id } });
      return c.every((x) => x.status === 'deleted');
    });
    expect(await primary().allocation.count({ where: { cluster: { orgId: org.id }, releasedAt: null } })).toBe(0);

    // The admin cancels during the grace period: writable again, audited.
    const cancel = await call<{ status: string }>('POST', '/v1/organization/cancel-offboard', {
      host: 'sfo1.localhost',
      cookie: admin,
      body: {},
    });
    expect([cancel.status, cancel.body.status]).toEqual([200, 'active']);
    const again = await call('POST', '/v1/projects', { host: 'sfo1.localhost', cookie: admin, body: { name: 'more' } });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const actions = await primary().auditEvent.findMany({
      where: { targetId: org.id, action: { in: ['organization.offboard', 'organization.cancel_offboard'] } },
      orderBy: { createdAt: 'asc' },
    });
    expect(actions.map((a) => a.action)).toEqual(['organization.offboard', 'organization.cancel_offboard']);
  }, 60_000);

  it('an operator offboards; after the grace period the purge frees the slug and keeps the audit trail', async () => {
    const path = `/v1/atlas/organizations/${org.id}`;
    const res = await call<{ purge_after: string }>('POST', `${path}/offboard`, {
      cookie: ops,
      body: { confirm: 'umbrella' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    // During the grace period the sweep purges nothing and the workspace still resolves.
    expect(await sweepOffboarding()).toBe(0);
    expect((await lookUp('umbrella')).body.region).toBe('sfo1');
    const eventsBefore = await primary().auditEvent.count({ where: { orgId: org.id } });
    expect(eventsBefore).toBeGreaterThan(3);

    await until('the grace period to pass', async () => Date.now() > Date.parse(res.body.purge_after));
    expect(await sweepOffboarding()).toBe(1);
    expect(await primary().organization.findUnique({ where: { id: org.id } })).toBeNull();
    expect(await directoryRow('umbrella')).toBeNull();
    expect(await primary().user.count({ where: { email: 'wesker@u.test' } })).toBe(0); // a member of nothing else
    // The trail stays: every event, the purge's own naming the organization.
    const purgeEvent = await primary().auditEvent.findFirstOrThrow({ where: { action: 'organization.purge' } });
    expect(purgeEvent.metadata).toMatchObject({ org_id: org.id, slug: 'umbrella', audit_events_kept: eventsBefore });
    expect(await primary().auditEvent.count({ where: { targetId: org.id } })).toBeGreaterThanOrEqual(5);
    // A second sweep finds nothing; the slug can be taken again, in another region.
    expect(await sweepOffboarding()).toBe(0);
    const reborn = await create({
      slug: 'umbrella',
      name: 'Umbrella 2',
      home_region: 'ams1',
      admin_email: 'u2@u.test',
    });
    expect(reborn.status, JSON.stringify(reborn.body)).toBe(201);
    expect((await lookUp('umbrella')).body.region).toBe('ams1');
  }, 60_000);

  it('an operator cancels during the grace period; past it, the cancel is 409', async () => {
    const hooli = await primary().organization.findUniqueOrThrow({ where: { slug: 'hooli' } });
    const path = `/v1/atlas/organizations/${hooli.id}`;
    expect((await call('POST', `${path}/offboard`, { cookie: ops, body: { confirm: 'hooli' } })).status).toBe(202);
    const twice = await call('POST', `${path}/offboard`, { cookie: ops, body: { confirm: 'hooli' } });
    expect([twice.status, twice.body.error?.code]).toEqual([409, 'conflict']);
    const cancelled = await call<{ status: string }>('POST', `${path}/cancel-offboard`, { cookie: ops, body: {} });
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'active']);
    expect((await call('POST', `${path}/offboard`, { cookie: ops, body: { confirm: 'hooli' } })).status).toBe(202);
    await primary().organization.update({ where: { id: hooli.id }, data: { purgeAfter: new Date(Date.now() - 1000) } });
    const late = await call('POST', `${path}/cancel-offboard`, { cookie: ops, body: {} });
    expect([late.status, late.body.error?.code]).toEqual([409, 'conflict']);
  });
});

describe('self-serve sign-up', () => {
  const body = (slug: string) => ({
    email: `${slug}@signup.test`,
    password: 'a long enough password',
    organization_slug: slug,
    organization_name: slug.toUpperCase(),
  });

  it('at a region: a new organization homed there with the person as its admin; never at the global address', async () => {
    const atGlobal = await call('POST', '/v1/signup', { body: body('pied-piper') });
    expect([atGlobal.status, atGlobal.body.error?.code]).toEqual([421, 'wrong_region']);
    const res = await call<{ organization: { slug: string; region: string } }>('POST', '/v1/signup', {
      host: 'ams1.localhost',
      body: body('pied-piper'),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.organization).toMatchObject({ slug: 'pied-piper', region: 'ams1' });
    expect((await lookUp('pied-piper')).body.region).toBe('ams1');
    expect(await checkCredentials({ ...body('pied-piper'), workspace: 'pied-piper' }, '192.0.2.12')).not.toBeNull();
    const taken = await call('POST', '/v1/signup', {
      host: 'lax1.localhost',
      body: { ...body('x1'), organization_slug: 'globex' },
    });
    expect([taken.status, taken.body.error?.code]).toEqual([409, 'slug_taken']);
  });

  it('is off by default (404), and rate-limited per address', async () => {
    setEnv({ MERIDIAN_SIGNUP: 'off' });
    try {
      const off = await call('POST', '/v1/signup', { host: 'ams1.localhost', body: body('closed') });
      expect([off.status, off.body.error?.code]).toEqual([404, 'not_found']);
    } finally {
      setEnv({ MERIDIAN_SIGNUP: 'on' });
    }
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await call('POST', '/v1/signup', { host: 'ams1.localhost', body: body(`burst-${i}`) })).status);
    }
    expect(statuses.slice(0, 3)).toEqual([201, 201, 201]); // two of the five were spent above
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
