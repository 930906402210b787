// Roles (viewer ⊂ member ⊂ admin), enumerated from the router like the tenancy suite: every
// procedure declares its role decision; every mutation is refused (403) to a viewer and every
// admin-only procedure to a member, by tRPC and by REST (the contract's error shape), and to API
// keys without the scope that stands for the role. A procedure added without a decision fails here.
import { TRPCError } from '@trpc/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { callerFor, rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { topology, waitForReplay } from '../../dev/testing/db';
import type { DemoCredentials } from '../../dev/demo/seed';
import type { RouteMeta } from '../../server/api/middleware/request';
import { appRouter } from '../../server/api/root';
import { mintApiKey } from '../../server/api-keys/format';
import { primary } from '../../server/db/client';
import { newId } from '../../server/ids';

type Proc = { _def: { type: string; meta?: RouteMeta } };
const all = appRouter._def.procedures as unknown as Record<string, Proc>;
const entries = Object.entries(all).sort(([a], [b]) => a.localeCompare(b));

/** Mutations that need no role in the organization, each for a reason. */
const NO_ROLE_MUTATIONS: Record<string, string> = {
  'me.updateSettings': 'the caller’s own theme and default region (self): not the organization’s data',
  'me.endSession': 'the caller’s own browser sessions (self): ending one of theirs',
  'me.signOutEverywhere': 'the caller’s own browser sessions (self): ending all of theirs',
  'invitations.accept': 'public: the invitee joins; the link is the credential',
  'routing.resolveWrite': 'public: says where a write would go, writes nothing',
  'compute.kubernetes.tokenReview': 'public: the cluster API server’s webhook, authenticated by the token',
  'onboarding.signUp': 'public: self-serve sign-up at a region (MERIDIAN_SIGNUP), makes a new organization',
  'onboarding.setPassword': 'public: a first admin’s one-time set-your-password link, authenticated by the link',
};

const orgProcedures = entries.filter(([, p]) => p._def.meta?.access !== 'operator');
const mutationsFor = (role: string) =>
  orgProcedures.filter(([, p]) => p._def.type === 'mutation' && p._def.meta?.role === role).map(([path]) => path);
const viewerRefused = [...mutationsFor('member'), ...mutationsFor('admin')];
const adminOnly = orgProcedures.filter(([, p]) => p._def.meta?.role === 'admin').map(([path]) => path);

let creds: DemoCredentials;
let acmeId: string;
const cookies: Record<'viewer' | 'member' | 'admin', string> = { viewer: '', member: '', admin: '' };
const keys: Record<'read' | 'write', string> = { read: '', write: '' };

function code(e: unknown): string {
  expect(e).toBeInstanceOf(TRPCError);
  return (e as { cause: { code: string } }).cause.code;
}

function procedureOf(api: unknown, path: string): (input: unknown) => Promise<unknown> {
  let fn: unknown = api;
  for (const part of path.split('.')) fn = (fn as Record<string, unknown>)[part];
  return fn as (input: unknown) => Promise<unknown>;
}

async function refusal(path: string, headers: Record<string, string>): Promise<string> {
  const { api } = callerFor({ method: all[path]!._def.type === 'mutation' ? 'POST' : 'GET', headers });
  // The role is checked before the input is read: any input gets the same 403.
  return code(await procedureOf(api, path)({}).catch((e: unknown) => e));
}

beforeAll(async () => {
  ({ credentials: creds } = await useDemoDatabase('roles'));
  const db = primary();
  acmeId = (await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } })).id;
  const alice = await db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
  for (const role of ['viewer', 'member'] as const) {
    const user = await db.user.create({
      data: { id: newId('usr'), email: `${role}@acme.test`, name: role, passwordHash: 'x' },
    });
    await db.membership.create({ data: { userId: user.id, orgId: acmeId, role } });
    cookies[role] = await sessionCookie(user.id, acmeId);
  }
  cookies.admin = await sessionCookie(alice.id, acmeId);
  for (const scope of ['read', 'write'] as const) {
    const minted = mintApiKey('sfo1');
    await db.apiKey.create({
      data: {
        id: newId('key'),
        orgId: acmeId,
        name: scope,
        region: 'sfo1',
        prefix: minted.prefix,
        secretHash: minted.secretHash,
        scopes: [scope],
      },
    });
    keys[scope] = minted.key;
  }
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
});

describe('every procedure declares its role', () => {
  it('has a decision (viewer, member, admin, self or public); a new procedure without one fails', () => {
    const undecided = orgProcedures.filter(([, p]) => !p._def.meta?.role).map(([path]) => path);
    expect(undecided).toEqual([]);
  });

  it('no mutation is open to viewers, and the ones that ask no role are these, each for a reason', () => {
    expect(mutationsFor('viewer')).toEqual([]);
    expect([...mutationsFor('self'), ...mutationsFor('public')].sort()).toEqual(Object.keys(NO_ROLE_MUTATIONS).sort());
    expect(viewerRefused.length).toBeGreaterThan(10);
  });
});

describe('a viewer reads but changes nothing', () => {
  it.each(viewerRefused)('%s → 403 for a viewer', async (path) => {
    expect(await refusal(path, { cookie: cookies.viewer })).toBe('forbidden');
  });

  it.each(viewerRefused)('%s → 403 for a read-scoped API key', async (path) => {
    expect(await refusal(path, { authorization: `Bearer ${keys.read}` })).toBe('forbidden');
  });

  it('reads the organization and its members', async () => {
    const { api } = callerFor({ headers: { cookie: cookies.viewer } });
    expect((await api.organization.get({})).role).toBe('viewer');
    expect(new Set((await api.members.list({})).data.map((m) => m.role))).toEqual(
      new Set(['admin', 'member', 'viewer']),
    );
  });

  it('REST: every mutation of the document answers 403 with the contract’s error shape', async () => {
    const refused = viewerRefused.filter((p) => all[p]!._def.meta?.openapi);
    expect(refused.length).toBeGreaterThan(5);
    for (const path of refused) {
      const { method, path: route } = all[path]!._def.meta!.openapi!;
      const url = `/v1${route.replace(/\{[^}]+\}/g, 'x')}`;
      const res = await rest<{ error: Record<string, unknown> }>(method, url, {
        host: 'sfo1.localhost:3000',
        headers: { cookie: cookies.viewer },
        body: method === 'DELETE' ? undefined : {},
      });
      expect([path, res.status, res.body.error.code]).toEqual([path, 403, 'forbidden']);
      expect(Object.keys(res.body.error)).toEqual(expect.arrayContaining(['code', 'message', 'request_id']));
      expect(res.body.error.request_id).toMatch(/^req_/);
    }
  });
});

describe('a member does the work but does not manage', () => {
  it.each(adminOnly)('%s → 403 for a member', async (path) => {
    expect(await refusal(path, { cookie: cookies.member })).toBe('forbidden');
  });

  it.each(adminOnly)('%s → 403 for a write-scoped API key', async (path) => {
    expect(await refusal(path, { authorization: `Bearer ${keys.write}` })).toBe('forbidden');
  });

  it('a member’s mutation passes the role check (refused, if at all, for its input)', async () => {
    const { api } = callerFor({ method: 'POST', headers: { cookie: cookies.member } });
    await api.notifications.markAllRead({});
    const created = await api.projects.create({ name: `by-member-${Date.now()}` });
    expect(created.id).toMatch(/^prj_/);
  });

  it('an admin passes where the member was refused', async () => {
    const { api } = callerFor({ headers: { cookie: cookies.admin } });
    expect((await api.invitations.list({})).data).toEqual([]);
    expect(creds.users.length).toBeGreaterThan(0);
  });
});
