// Routing policies, the store and the gateways' applied copy, against a real primary
// and replicas through the REST door: the seeded versions, publish (201, audited, NOTIFY),
// validation errors with details, the safety rules, "nothing changed", immutability of versions,
// rollback, the regions PATCH publishing a version, takeover (a new epoch) and epoch fencing (a
// forged change event from an older epoch is refused and the last good version kept), a version
// failing the gateway's own validation refused, and a new version applied within moments.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { NOTICED_WITHIN_MS } from '../../dev/testing/eventually';
import { disconnectAll, primary } from '../../server/db/client';
import { resetEnvCache } from '../../server/env';
import { gatewayId } from '../../server/db/write-position-state';
import { newId } from '../../server/ids';
import {
  appliedPolicy,
  appliedSummary,
  BUILT_IN_POLICY,
  ensurePolicies,
  policyEpochSeen,
  resetAppliedPolicies,
  resyncPolicies,
} from '../../server/routing/applied';
import { formatVersion } from '../../server/routing/policy';
import { ensureOrganizationPolicies } from '../../server/routing/initial-policies';

type ErrorOut = { error: { code: string; message: string; request_id: string; details?: unknown } };
type Content = {
  primary_region: string;
  allowed_regions: string[];
  failover_mode: string;
  standby_region: string | null;
  read_weights: Record<string, number>;
  routes: Record<string, Record<string, unknown>>;
};
type Version = {
  version: string;
  epoch: number;
  sequence: number;
  org_id: string | null;
  content: Content;
  published_by: { id: string; email: string | null } | null;
  rollback_of: string | null;
  reason: string | null;
};
type History = {
  org: { id: string; slug: string; home_region: string | null; live_clusters_by_region: Record<string, number> } | null;
  current: Version | null;
  data: Version[];
  next_cursor: string | null;
};

let ops: string;
let opsId: string;
let globexId: string;
let acmeId: string;
let urls: { primary: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const get = <T>(path: string) => rest<T & ErrorOut>('GET', path, { headers: { cookie: ops } });
const post = <T>(path: string, body: unknown) => rest<T & ErrorOut>('POST', path, { headers: { cookie: ops }, body });
const publish = (org: string, content: unknown, reason?: string) =>
  post<Version>('/v1/atlas/policies', { org, content, ...(reason ? { reason } : {}) });
const current = async (org: string) => (await get<History>(`/v1/atlas/policies?org=${org}`)).body.current!;

/** Waits until `check` holds (the gateway applies asynchronously, on NOTIFY). */
async function until(check: () => boolean, timeoutMs = 3_000): Promise<number> {
  const t0 = performance.now();
  while (!check()) {
    if (performance.now() - t0 > timeoutMs) throw new Error('timed out');
    await sleep(5);
  }
  return performance.now() - t0;
}

/** This gateway's row once it reports refusing `version` (its upsert follows the refusal). */
async function reportedRefusal(version: string): Promise<unknown> {
  for (let i = 0; i < 100; i++) {
    const row = await primary().routingPolicyGateway.findUnique({ where: { gatewayId: gatewayId() } });
    if ((row?.refused as { version?: string } | null)?.version === version) return row!.refused;
    await sleep(20);
  }
  return null;
}

beforeAll(async () => {
  ({ urls } = await useDemoDatabase('routing_policies'));
  const db = primary();
  opsId = (await db.user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } })).id;
  ops = await sessionCookie(opsId, null);
  globexId = (await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } })).id;
  acmeId = (await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } })).id;
  await ensurePolicies();
});

afterAll(async () => {
  await resetAppliedPolicies();
});

describe('the seeded store', () => {
  it('has the platform default (1.1) and one version per organization, from its regions, mode fixed', async () => {
    const def = await get<History>('/v1/atlas/policies?org=default');
    expect(def.status).toBe(200);
    expect(def.body.org).toBeNull();
    expect(def.body.current).toMatchObject({ version: '1.1', org_id: null, content: { failover_mode: 'fixed' } });
    const globex = await get<History>('/v1/atlas/policies?org=globex');
    expect(globex.body.org).toMatchObject({ id: globexId, slug: 'globex', home_region: 'sfo1' });
    expect(globex.body.current!.content).toMatchObject({
      primary_region: 'sfo1',
      allowed_regions: ['ams1', 'lax1', 'sfo1'],
      failover_mode: 'fixed',
      routes: { read: { max_lag_ms: 1000 }, write: { idempotency: 'optional' } },
    });
    // By ID too; the gateway applied the same.
    expect((await current(globexId)).version).toBe(globex.body.current!.version);
    expect(formatVersion(appliedPolicy(globexId).version)).toBe(globex.body.current!.version);
    expect(appliedSummary().synced).toBe(true);
  });

  it('an unknown organization is 404; a malformed org is 400', async () => {
    expect((await get('/v1/atlas/policies?org=nobody')).body.error.code).toBe('not_found');
    expect((await get(`/v1/atlas/policies?org=${'x'.repeat(80)}`)).status).toBe(400);
  });
});

describe('publish', () => {
  it('201: a new version (store epoch, next sequence), audited with the request ID, applied within moments', async () => {
    const before = await current('globex');
    const store = await primary().routingPolicyStore.findUniqueOrThrow({ where: { id: 1 } });
    const content = { ...before.content, failover_mode: 'active_standby', standby_region: 'lax1' };
    const res = await publish('globex', content, 'standby for the demo');
    expect(res.status).toBe(201);
    const published = Date.now();
    expect(res.body).toMatchObject({
      epoch: store.epoch,
      sequence: Number(store.sequence) + 1,
      org_id: globexId,
      reason: 'standby for the demo',
      published_by: { id: opsId, email: 'ops@meridian.test' },
      content: { failover_mode: 'active_standby', standby_region: 'lax1' },
    });
    const waited = await until(
      () => formatVersion(appliedPolicy(globexId).version) === res.body.version,
      NOTICED_WITHIN_MS,
    );
    expect(waited).toBeLessThan(NOTICED_WITHIN_MS);
    expect(Date.now() - published).toBeLessThan(NOTICED_WITHIN_MS);
    expect(appliedPolicy(globexId).content.standby_region).toBe('lax1');

    const history = await get<History>('/v1/atlas/policies?org=globex');
    expect(history.body.data.map((v) => v.version).slice(0, 2)).toEqual([res.body.version, before.version]);
    const audit = await primary().auditEvent.findFirstOrThrow({
      where: { action: 'operator.policy.publish', targetId: `${globexId}@${res.body.version}` },
    });
    expect(audit).toMatchObject({ actorId: opsId, orgId: globexId, requestId: res.headers.get('x-request-id') });
    expect(audit.metadata).toMatchObject({
      version: res.body.version,
      previous: before.version,
      changes: expect.arrayContaining([{ path: 'failover_mode', before: 'fixed', after: 'active_standby' }]),
    });
  });

  it('NOTIFY meridian_policy "<epoch>.<sequence> <org>" at commit', async () => {
    const c = new pg.Client({ connectionString: urls.primary });
    await c.connect();
    const heard: string[] = [];
    c.on('notification', (m) => heard.push(m.payload ?? ''));
    await c.query('LISTEN meridian_policy');
    try {
      const cur = await current('globex');
      const res = await publish('globex', {
        ...cur.content,
        routes: { ...cur.content.routes, list: { max_lag_ms: 2500, max_signal_age_ms: 5000 } },
      });
      expect(res.status).toBe(201);
      await until(() => heard.length > 0);
      expect(heard).toEqual([`${res.body.version} ${globexId}`]);
    } finally {
      await c.end();
    }
  });

  it('paginates history newest first', async () => {
    const page1 = await get<History>('/v1/atlas/policies?org=globex&limit=1');
    expect(page1.body.data).toHaveLength(1);
    expect(page1.body.next_cursor).toBeTruthy();
    const page2 = await get<History>(`/v1/atlas/policies?org=globex&limit=1&cursor=${page1.body.next_cursor}`);
    const [a, b] = [page1.body.data[0]!, page2.body.data[0]!];
    expect(a.epoch > b.epoch || (a.epoch === b.epoch && a.sequence > b.sequence)).toBe(true);
    expect((await get('/v1/atlas/policies?org=globex&cursor=bm9wZQ')).body.error.code).toBe('invalid_request');
  });

  it('400 invalid_request with details for schema and static rule errors; nothing written', async () => {
    const cur = await current('globex');
    const count = await primary().routingPolicy.count();
    const cases: [unknown, (string | number)[]][] = [
      [
        { ...cur.content, routes: { ...cur.content.routes, read: { max_lag_ms: 'soon', max_signal_age_ms: 5 } } },
        ['routes', 'read', 'max_lag_ms'],
      ],
      [
        { ...cur.content, routes: { ...cur.content.routes, read: { max_lag_ms: 99_999, max_signal_age_ms: 5000 } } },
        ['routes', 'read', 'max_lag_ms'],
      ],
      [{ ...cur.content, allowed_regions: ['lax1', 'ams1'] }, ['primary_region']],
      [{ ...cur.content, allowed_regions: [...cur.content.allowed_regions, 'zzz9'] }, ['allowed_regions', 3]],
      [{ ...cur.content, failover_mode: 'active_standby', standby_region: null }, ['standby_region']],
      [{ ...cur.content, surprise: true }, []],
    ];
    for (const [content, path] of cases) {
      const res = await publish('globex', content);
      expect(res.status, JSON.stringify(content)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      const details = res.body.error.details as { path: (string | number)[]; message: string }[];
      expect(details.length).toBeGreaterThan(0);
      expect(details.map((d) => JSON.stringify(d.path))).toContain(JSON.stringify(path));
    }
    expect(await primary().routingPolicy.count()).toBe(count);
  });

  it('safety: the primary is the home region (else: a workspace move)', async () => {
    const cur = await current('globex');
    const res = await publish('globex', { ...cur.content, primary_region: 'lax1', standby_region: 'ams1' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/home region sfo1.*workspace move/);
    expect(res.body.error.details).toEqual([
      { path: ['primary_region'], message: expect.stringMatching(/home region/) },
    ]);
  });

  it('safety: removing a region that holds live clusters is 409 with the regions; nothing changed', async () => {
    const cur = await current('globex');
    const live = await primary().cluster.count({
      where: { orgId: globexId, region: 'ams1', status: { not: 'deleted' } },
    });
    expect(live).toBeGreaterThan(0);
    const res = await publish('globex', { ...cur.content, allowed_regions: ['lax1', 'sfo1'], standby_region: 'lax1' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'conflict',
      details: { regions: [{ region: 'ams1', live_clusters: live }] },
    });
    const regions = await primary().organizationRegion.findMany({ where: { orgId: globexId } });
    expect(regions.map((r) => r.region).sort()).toEqual(['ams1', 'lax1', 'sfo1']);
    expect((await current('globex')).version).toBe(cur.version);
  });

  it('safety: at least one allowed region must be active', async () => {
    await primary().region.update({ where: { code: 'sfo1' }, data: { status: 'draining' } });
    try {
      const cur = await current('acme');
      const res = await publish('acme', {
        ...cur.content,
        routes: { ...cur.content.routes, read: { max_lag_ms: 10, max_signal_age_ms: 1000 } },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/at least one allowed region must be active/);
    } finally {
      await primary().region.update({ where: { code: 'sfo1' }, data: { status: 'active' } });
    }
  });

  it('409 "nothing changed" when the content equals the current version (region order aside)', async () => {
    const cur = await current('globex');
    const res = await publish('globex', {
      ...cur.content,
      allowed_regions: [...cur.content.allowed_regions].reverse(),
    });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/nothing changed/);
  });

  it('the projection: a region added by a policy is an allowed region of the organization', async () => {
    const cur = await current('acme');
    const res = await publish('acme', { ...cur.content, allowed_regions: ['sfo1', 'lax1'] });
    expect(res.status).toBe(201);
    const regions = await primary().organizationRegion.findMany({ where: { orgId: acmeId } });
    expect(regions.map((r) => r.region).sort()).toEqual(['lax1', 'sfo1']);
    const back = await publish('acme', cur.content);
    expect(back.status).toBe(201);
    expect((await primary().organizationRegion.findMany({ where: { orgId: acmeId } })).map((r) => r.region)).toEqual([
      'sfo1',
    ]);
  });
});

describe('publishes are serialized', () => {
  it('concurrent publishes of two organizations get consecutive sequences, none lost', async () => {
    const [g, a] = [await current('globex'), await current('acme')];
    const before = await primary().routingPolicyStore.findUniqueOrThrow({ where: { id: 1 } });
    const lag = (c: Content, ms: number) => ({
      ...c,
      routes: { ...c.routes, read: { max_lag_ms: ms, max_signal_age_ms: 5000 } },
    });
    const results = await Promise.all([
      publish('globex', lag(g.content, 101)),
      publish('acme', lag(a.content, 102)),
      publish('globex', lag(g.content, 103)),
      publish('acme', lag(a.content, 104)),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const seqs = results.map((r) => r.body.sequence).sort((x, y) => x - y);
    const first = Number(before.sequence) + 1;
    expect(seqs).toEqual([first, first + 1, first + 2, first + 3]);
    // Put both back (the last of each won).
    expect((await publish('globex', g.content)).status).toBe(201);
    expect((await publish('acme', a.content)).status).toBe(201);
  });
});

describe('preview', () => {
  it('answers the issues and the diff against current, writes nothing', async () => {
    const cur = await current('globex');
    const count = await primary().routingPolicy.count();
    const ok = await post<{ valid: boolean; issues: unknown[]; changes: { path: string }[]; unchanged: boolean }>(
      '/v1/atlas/policies/preview',
      {
        org: 'globex',
        content: {
          ...cur.content,
          routes: { ...cur.content.routes, write: { ...cur.content.routes.write, idempotency: 'required' } },
        },
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ valid: true, issues: [], unchanged: false });
    expect(ok.body.changes).toEqual([{ path: 'routes.write.idempotency', before: 'optional', after: 'required' }]);
    const bad = await post<{ valid: boolean; issues: { path: unknown[]; message: string }[] }>(
      '/v1/atlas/policies/preview',
      { org: 'globex', content: { ...cur.content, allowed_regions: ['sfo1', 'lax1'], standby_region: 'lax1' } },
    );
    expect(bad.body.valid).toBe(false);
    expect(bad.body.issues.map((i) => i.message).join(' ')).toMatch(/ams1 still holds \d+ live cluster/);
    expect(await primary().routingPolicy.count()).toBe(count);
  });
});

describe('versions are immutable', () => {
  it('UPDATE, DELETE and TRUNCATE are refused by the database, whoever asks', async () => {
    const db = primary();
    await expect(db.$executeRaw`UPDATE routing_policies SET reason = 'edited'`).rejects.toThrow(/immutable/);
    await expect(db.$executeRaw`DELETE FROM routing_policies WHERE org_id IS NULL`).rejects.toThrow(/immutable/);
    await expect(db.$executeRaw`TRUNCATE routing_policies`).rejects.toThrow();
  });

  it('an organization deleted takes its versions with it (the cascade is allowed)', async () => {
    // (Also: ensureOrganizationPolicies gives a new organization its first version.)
    const db = primary();
    const id = newId('org');
    await db.organization.create({
      data: {
        id,
        slug: `gone-${id.slice(-6).toLowerCase()}`,
        name: 'Gone',
        allowedRegions: { create: [{ region: 'sfo1' }] },
      },
    });
    expect(await ensureOrganizationPolicies(db)).toBe(1);
    expect(await db.routingPolicy.count({ where: { orgId: id } })).toBe(1);
    await db.organization.delete({ where: { id } });
    expect(await db.routingPolicy.count({ where: { orgId: id } })).toBe(0);
  });

  it('a deleted publisher is forgotten (published_by NULL), the version stays', async () => {
    // A throwaway organization and user: the row is written by hand (not through the store).
    const db = primary();
    const [orgId, userId] = [newId('org'), newId('usr')];
    await db.organization.create({ data: { id: orgId, slug: `pub-${orgId.slice(-6).toLowerCase()}`, name: 'Pub' } });
    await db.user.create({
      data: { id: userId, email: `gone-${userId.slice(-6)}@example.test`, name: 'Gone', passwordHash: 'x' },
    });
    const cur = await current('globex');
    await db.$executeRaw`
      INSERT INTO routing_policies (epoch, sequence, org_id, content, published_by, reason)
      VALUES (${cur.epoch}, ${cur.sequence + 1_000_000}, ${orgId}, ${JSON.stringify(cur.content)}::jsonb, ${userId}, 'by someone who leaves')`;
    await db.user.delete({ where: { id: userId } });
    const row = await db.routingPolicy.findUniqueOrThrow({
      where: { epoch_sequence: { epoch: cur.epoch, sequence: BigInt(cur.sequence + 1_000_000) } },
    });
    expect(row).toMatchObject({ publishedBy: null, reason: 'by someone who leaves', orgId });
    await db.organization.delete({ where: { id: orgId } });
  });
});

describe('rollback', () => {
  it('publishes an old version’s content as a new version naming it; 409 when current already; 404 unknown', async () => {
    const history = (await get<History>('/v1/atlas/policies?org=globex&limit=50')).body.data;
    const oldest = history.at(-1)!;
    const res = await post<Version>('/v1/atlas/policies/rollback', { org: 'globex', version: oldest.version });
    expect(res.status).toBe(201);
    expect(res.body.rollback_of).toBe(oldest.version);
    expect(res.body.content).toEqual(oldest.content);
    expect(res.body.version).not.toBe(oldest.version);
    await until(() => formatVersion(appliedPolicy(globexId).version) === res.body.version);
    const again = await post('/v1/atlas/policies/rollback', { org: 'globex', version: oldest.version });
    expect(again.status).toBe(409);
    expect((await post('/v1/atlas/policies/rollback', { org: 'globex', version: '1.9999' })).status).toBe(404);
    expect((await post('/v1/atlas/policies/rollback', { org: 'globex', version: 'latest' })).status).toBe(400);
    // Another organization's version is not this one's.
    const acmeVersion = (await current('acme')).version;
    expect((await post('/v1/atlas/policies/rollback', { org: 'globex', version: acmeVersion })).status).toBe(404);
    expect(
      await primary().auditEvent.count({
        where: { action: 'operator.policy.rollback', targetId: `${globexId}@${res.body.version}` },
      }),
    ).toBe(1);
  });
});

describe('the regions PATCH is a policy publish', () => {
  it('adding a region publishes a version with the new allowed regions; a default-only change publishes none', async () => {
    const before = await current('acme');
    const patch = (body: unknown) =>
      rest<ErrorOut>('PATCH', `/v1/atlas/organizations/${acmeId}`, { headers: { cookie: ops }, body });
    expect((await patch({ allowed_regions: ['sfo1', 'ams1'] })).status).toBe(200);
    const after = await current('acme');
    expect(after.version).not.toBe(before.version);
    expect(after.content.allowed_regions).toEqual(['ams1', 'sfo1']);
    expect(after.content.primary_region).toBe('sfo1');
    const audit = await primary().auditEvent.findFirstOrThrow({
      where: { action: 'operator.organization.set_regions', orgId: acmeId },
      orderBy: { createdAt: 'desc' },
    });
    expect(audit.metadata).toMatchObject({ policy_version: after.version });
    expect((await patch({ default_region: 'sfo1' })).status).toBe(200);
    expect((await current('acme')).version).toBe(after.version);
    expect((await patch({ allowed_regions: ['sfo1'] })).status).toBe(200);
    expect((await current('acme')).content.allowed_regions).toEqual(['sfo1']);
  });

  it('a default-only change still works when the policy would fail today’s rules (nothing is published)', async () => {
    const before = await current('acme');
    await primary().region.update({ where: { code: 'sfo1' }, data: { status: 'draining' } });
    try {
      const res = await rest<ErrorOut>('PATCH', `/v1/atlas/organizations/${acmeId}`, {
        headers: { cookie: ops },
        body: { default_region: 'sfo1' },
      });
      expect(res.status).toBe(200);
      expect((await current('acme')).version).toBe(before.version);
      // A real change is held to the rules: sfo1 draining and nothing else active.
      const changed = await publish('acme', {
        ...before.content,
        failover_mode: 'fixed',
        routes: { ...before.content.routes, list: { max_lag_ms: 10, max_signal_age_ms: 500 } },
      });
      expect(changed.status).toBe(400);
    } finally {
      await primary().region.update({ where: { code: 'sfo1' }, data: { status: 'active' } });
    }
  });
});

describe('the gateways', () => {
  it('GET /v1/atlas/policies/gateways lists this process, synced to the newest version', async () => {
    const latest = await primary().routingPolicy.findFirstOrThrow({
      orderBy: [{ epoch: 'desc' }, { sequence: 'desc' }],
    });
    const want = `${latest.epoch}.${latest.sequence}`;
    let body:
      { latest_version: string; data: { gateway_id: string; status: string; applied_version: string }[] } | undefined;
    for (let i = 0; i < 100; i++) {
      body = (await get<typeof body & object>('/v1/atlas/policies/gateways')).body;
      if (body.data.find((g) => g.gateway_id === gatewayId())?.applied_version === want) break;
      await sleep(20);
    }
    expect(body!.latest_version).toBe(want);
    expect(body!.data.find((g) => g.gateway_id === gatewayId())).toMatchObject({
      status: 'synced',
      applied_version: want,
    });
  });

  it('refuses a version that fails its own validation (a region it doesn’t know) and keeps the last good one', async () => {
    // A region added behind the gateway's back (no NOTIFY to its registry): the store knows it,
    // this gateway doesn't.
    await primary().region.create({
      data: {
        code: 'fra1',
        label: 'Frankfurt',
        country: 'DE',
        timezone: 'Europe/Berlin',
        provider: 'metal',
        baseUrl: 'http://fra1.localhost:3000',
      },
    });
    const good = appliedPolicy(acmeId);
    const cur = await current('acme');
    const res = await publish('acme', { ...cur.content, allowed_regions: ['sfo1', 'fra1'] });
    expect(res.status).toBe(201);
    await until(() => appliedSummary().refused.some((r) => r.version === res.body.version));
    expect(appliedPolicy(acmeId)).toBe(good);
    expect(appliedSummary().refused[0]).toMatchObject({ org: acmeId, reason: expect.stringMatching(/fra1/) });
    expect(await reportedRefusal(res.body.version)).toMatchObject({ org: acmeId, version: res.body.version });
    // Put acme back (fra1 out) so later tests see it as before.
    expect((await publish('acme', cur.content)).status).toBe(201);
  });

  it('a forged change event with a huge epoch is only a hint: the epoch stays the store’s, the next publish applies', async () => {
    const c = new pg.Client({ connectionString: urls.primary });
    await c.connect();
    try {
      const epoch = policyEpochSeen();
      const [store] = await primary().$queryRaw<
        { epoch: number }[]
      >`SELECT epoch FROM routing_policy_store WHERE id = 1`;
      expect(epoch).toBe(store!.epoch);
      for (const payload of ['999999999.0 *', `999999999.5 ${globexId}`, '999999999.1 default']) {
        await c.query(`SELECT pg_notify('meridian_policy', $1)`, [payload]);
      }
      // Malformed ones are dropped without a read.
      for (const payload of ['1.1', '1.1 org_x y', `x.1 ${globexId}`, '1.1 not-an-org']) {
        await c.query(`SELECT pg_notify('meridian_policy', $1)`, [payload]);
      }
      await sleep(300);
      await resyncPolicies(); // queued after the events' reloads: they have all run
      expect(policyEpochSeen()).toBe(epoch);
      const cur = await current('globex');
      const next = await publish('globex', {
        ...cur.content,
        routes: { ...cur.content.routes, read: { max_lag_ms: 700, max_signal_age_ms: 4000 } },
      });
      expect(next.status).toBe(201);
      await until(() => formatVersion(appliedPolicy(globexId).version) === next.body.version);
      expect(appliedSummary().refused.filter((r) => r.version.startsWith('999999999'))).toEqual([]);
    } finally {
      await c.end();
    }
  });

  it('takeover: a new epoch; gateways reload, refuse a forged change event from the old epoch and keep serving', async () => {
    const c = new pg.Client({ connectionString: urls.primary });
    await c.connect();
    try {
      const oldEpoch = policyEpochSeen();
      const res = await post<{ epoch: number }>('/v1/atlas/policies/takeover', {});
      expect(res.status).toBe(200);
      expect(res.body.epoch).toBe(oldEpoch + 1);
      await until(() => policyEpochSeen() === oldEpoch + 1);
      expect(await primary().auditEvent.count({ where: { action: 'operator.policy.takeover' } })).toBe(1);

      // The first publish of the new epoch is (epoch, 1), applied.
      const cur = await current('globex');
      const next = await publish('globex', {
        ...cur.content,
        routes: { ...cur.content.routes, read: { max_lag_ms: 750, max_signal_age_ms: 4000 } },
      });
      expect(next.body.version).toBe(`${oldEpoch + 1}.1`);
      await until(() => formatVersion(appliedPolicy(globexId).version) === next.body.version);
      const good = appliedPolicy(globexId);

      // A stale store (the old epoch) announces a change: refused before anything is read.
      await c.query(`SELECT pg_notify('meridian_policy', $1)`, [`${oldEpoch}.999 ${globexId}`]);
      await until(() => appliedSummary().refused.some((r) => r.version === `${oldEpoch}.999`));
      expect(appliedSummary().refused[0]).toMatchObject({
        org: globexId,
        reason: expect.stringMatching(/older than epoch/),
      });
      expect(appliedPolicy(globexId)).toBe(good);
      expect(policyEpochSeen()).toBe(oldEpoch + 1);
      expect(await reportedRefusal(`${oldEpoch}.999`)).toMatchObject({ org: globexId, version: `${oldEpoch}.999` });
    } finally {
      await c.end();
    }
  });

  it('the store unreachable: a resync fails and the last loaded versions keep serving', async () => {
    const applied = appliedPolicy(globexId);
    const url = process.env.DATABASE_URL!;
    process.env.DATABASE_URL = 'postgresql://meridian:nope@127.0.0.1:1/meridian';
    resetEnvCache();
    await disconnectAll();
    try {
      await resyncPolicies();
      expect(appliedPolicy(globexId)).toBe(applied);
      expect(appliedSummary().synced).toBe(true);
    } finally {
      process.env.DATABASE_URL = url;
      resetEnvCache();
      await disconnectAll();
    }
  });

  it('before the first load: the built-in default, unsynced; an organization without a version gets the default', async () => {
    const applied = appliedPolicy(globexId);
    // An organization the store has never heard of gets the platform default.
    expect(appliedPolicy('org_unknown').orgId).toBeNull();
    expect(applied.orgId).toBe(globexId);
    await resetAppliedPolicies();
    expect(appliedPolicy(globexId)).toBe(BUILT_IN_POLICY);
    expect(appliedSummary().synced).toBe(false);
    await ensurePolicies();
    expect(appliedPolicy(globexId).version).toEqual(applied.version);
  });

  it('a gateway starting while the store is unreachable starts anyway, on the built-in default, unsynced', async () => {
    const url = process.env.DATABASE_URL!;
    await resetAppliedPolicies();
    process.env.DATABASE_URL = 'postgresql://meridian:nope@127.0.0.1:1/meridian';
    resetEnvCache();
    await disconnectAll();
    try {
      const t0 = performance.now();
      await ensurePolicies();
      expect(performance.now() - t0).toBeLessThan(3_500);
      expect(appliedPolicy(globexId)).toBe(BUILT_IN_POLICY);
      expect(appliedPolicy(globexId).content).toMatchObject({ failover_mode: 'fixed', primary_region: 'sfo1' });
      expect(appliedSummary()).toMatchObject({ synced: false, version: null });
    } finally {
      await resetAppliedPolicies();
      process.env.DATABASE_URL = url;
      resetEnvCache();
      await disconnectAll();
    }
    await ensurePolicies();
    expect(appliedSummary().synced).toBe(true);
  });
});
