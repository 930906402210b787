// The organization's audit log in Arc (GET /v1/audit, GET /v1/audit/export): its own events and
// the operators' changes to it, never another organization's (scoped in the query) nor a failed
// sign-in; filters and cursor pages; members and viewers read it without what only admins see,
// admins alone export it, nobody anonymous.
import { beforeAll, describe, expect, it } from 'vitest';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { topology, waitForReplay } from '../../dev/testing/db';
import { primary } from '../../server/db/client';
import { newId } from '../../server/ids';

type ErrorOut = { error: { code: string } };
type Event = {
  id: string;
  action: string;
  actor: { id: string; email: string } | null;
  org_id: string | null;
  target_type: string;
  metadata: Record<string, unknown>;
  redacted: boolean;
  created_at: string;
};
type Page = { data: Event[]; next_cursor: string | null } & ErrorOut;

let acmeId: string;
let globexId: string;
let alice: string;
let bobInAcme: string;
let bobInGlobex: string;
let viewer: string;
let ops: string;

const get = (path: string, cookie?: string) => rest<Page>('GET', path, { headers: cookie ? { cookie } : {} });

async function settled(): Promise<void> {
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
}

beforeAll(async () => {
  await useDemoDatabase('org_audit');
  const db = primary();
  const user = (email: string) => db.user.findUniqueOrThrow({ where: { email } });
  acmeId = (await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } })).id;
  globexId = (await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } })).id;
  const bob = await user('bob@globex.test');
  alice = await sessionCookie((await user('alice@acme.test')).id, acmeId);
  bobInAcme = await sessionCookie(bob.id, acmeId); // a member of acme
  bobInGlobex = await sessionCookie(bob.id, globexId); // globex's admin
  ops = await sessionCookie((await user('ops@meridian.test')).id, null);
  const v = await db.user.create({ data: { id: newId('usr'), email: 'vera@acme.test', name: 'Vera Viewer' } });
  await db.membership.create({ data: { userId: v.id, orgId: acmeId, role: 'viewer' } });
  viewer = await sessionCookie(v.id, acmeId);
  // Forged sessions carry no bookmark: sfo1's replica must hold the seed before they are used there.
  await settled();

  // What happens to each organization: keys made by their admins, and an operator's change to acme.
  for (const [cookie, name] of [
    [alice, 'acme-audit-key'],
    [bobInGlobex, 'globex-audit-key'],
  ] as const) {
    const key = await rest('POST', '/v1/api-keys', {
      headers: { cookie },
      body: { name, scopes: ['read'] },
      host: 'sfo1.localhost:3000', // a region key, made at its region
    });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
  }
  const org = await db.organization.findUniqueOrThrow({ where: { id: acmeId }, include: { allowedRegions: true } });
  const allowed = org.allowedRegions.map((r) => r.region);
  const missing = ['sfo1', 'lax1', 'ams1'].find((r) => !allowed.includes(r));
  const change = missing
    ? { allowed_regions: [...allowed, missing] }
    : { default_region: allowed.find((r) => r !== org.defaultRegion) };
  const patched = await rest('PATCH', `/v1/atlas/organizations/${acmeId}`, { headers: { cookie: ops }, body: change });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  // An invitation (its invitee's email is for admins' eyes), and a failed sign-in recorded against
  // acme (as single sign-on's are): not acme's to read at all.
  await db.auditEvent.create({
    data: {
      id: newId('evt'),
      orgId: acmeId,
      actorId: (await user('alice@acme.test')).id,
      action: 'invitation.create',
      targetType: 'invitation',
      metadata: { email: 'invitee@elsewhere.test', role: 'member' },
    },
  });
  await db.auditEvent.create({
    data: { id: newId('evt'), orgId: acmeId, action: 'auth.sign_in_failed', targetType: 'user', metadata: {} },
  });
  await settled();
});

describe('GET /v1/audit', () => {
  it('is the organization’s own log, with what operators did to it, never another’s', async () => {
    const page = await get('/v1/audit?limit=200', alice);
    expect(page.status).toBe(200);
    expect(page.body.data.length).toBeGreaterThan(0);
    expect(page.body.data.every((e) => e.org_id === acmeId)).toBe(true);
    const actions = page.body.data.map((e) => `${e.action} ${e.actor?.email ?? '-'}`);
    expect(actions).toContain('api_key.create alice@acme.test');
    expect(actions).toContain('operator.organization.set_regions ops@meridian.test');
    expect(page.body.data.map((e) => e.action)).not.toContain('auth.sign_in_failed');
    // globex's admin made a key too: not in acme's log, but in globex's.
    expect(page.body.data.some((e) => e.actor?.email === 'bob@globex.test' && e.action === 'api_key.create')).toBe(
      false,
    );
    const globex = await get('/v1/audit?action=api_key.create', bobInGlobex);
    expect(globex.body.data.map((e) => e.org_id)).toEqual([globexId]);
  });

  it('filters by action (a prefix with *), actor and time, newest first, a cursor page at a time', async () => {
    const keys = await get('/v1/audit?action=api_key.*', alice);
    expect(keys.body.data.length).toBeGreaterThan(0);
    expect(keys.body.data.every((e) => e.action.startsWith('api_key.'))).toBe(true);
    const byOps = await get(`/v1/audit?actor=${encodeURIComponent('ops@meridian.test')}`, alice);
    expect(byOps.body.data.map((e) => e.action)).toContain('operator.organization.set_regions');
    expect(byOps.body.data.every((e) => e.actor?.email === 'ops@meridian.test')).toBe(true);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect((await get(`/v1/audit?from=${encodeURIComponent(later)}`, alice)).body.data).toEqual([]);

    const all = (await get('/v1/audit?limit=200', alice)).body.data;
    const times = all.map((e) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const first = await get('/v1/audit?limit=1', alice);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.next_cursor).toBeTruthy();
    const second = await get(`/v1/audit?limit=1&cursor=${encodeURIComponent(first.body.next_cursor!)}`, alice);
    expect(second.body.data[0]!.id).toBe(all[1]!.id);
    expect((await get('/v1/audit?cursor=not-a-cursor', alice)).body.error.code).toBe('invalid_request');
  });

  it('members and viewers read it without what only admins see; admins alone export it; nobody anonymous', async () => {
    const full = await get('/v1/audit?action=invitation.create', alice);
    expect(full.body.data.map((e) => [e.metadata, e.redacted])).toEqual([
      [{ email: 'invitee@elsewhere.test', role: 'member' }, false],
    ]);
    for (const cookie of [bobInAcme, viewer]) {
      const page = await get('/v1/audit?limit=200', cookie);
      expect(page.status).toBe(200);
      expect(page.body.data.every((e) => e.org_id === acmeId)).toBe(true);
      const admins = (await get('/v1/audit?limit=200', alice)).body.data;
      expect(page.body.data.map((e) => e.id)).toEqual(admins.map((e) => e.id));
      const invited = page.body.data.find((e) => e.action === 'invitation.create')!;
      expect([invited.metadata, invited.redacted]).toEqual([{ role: 'member' }, true]);
      const key = page.body.data.find((e) => e.action === 'api_key.create' && e.metadata.name === 'acme-audit-key')!;
      expect(key.redacted).toBe(false); // nothing in it is an admin's alone
      expect(JSON.stringify(page.body.data)).not.toContain('invitee@elsewhere.test');
      // An operator is not one of its people: what they did is listed, who they are is the admins'.
      const operator = page.body.data.find((e) => e.action === 'operator.organization.set_regions')!;
      expect([operator.actor, operator.redacted]).toEqual([null, true]);
      expect(JSON.stringify(page.body.data)).not.toContain('ops@meridian.test');
      const probe = await get(`/v1/audit?actor=${encodeURIComponent('ops@meridian.test')}`, cookie);
      expect([probe.status, probe.body.data]).toEqual([200, []]);
      const byAlice = await get(`/v1/audit?actor=${encodeURIComponent('alice@acme.test')}`, cookie);
      expect(byAlice.body.data.length).toBeGreaterThan(0); // a member: seen
      const refused = await get('/v1/audit/export', cookie);
      expect([refused.status, refused.body.error.code]).toEqual([403, 'forbidden']);
    }
    expect((await get('/v1/audit')).status).toBe(401);
    const exported = await get('/v1/audit/export', alice);
    expect(exported.status).toBe(200);
    expect(exported.body.data.every((e) => e.org_id === acmeId && !e.redacted)).toBe(true);
    expect(exported.body.data.length).toBe((await get('/v1/audit?limit=200', alice)).body.data.length);
    expect((await get('/v1/audit?limit=201', alice)).status).toBe(400);
  });
});
