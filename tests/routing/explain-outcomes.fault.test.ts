// Every request explains itself by its ID, through the real server: for a sample of requests
// across doors (REST with a key, tRPC with a browser session) and outcomes (200, 401, 403, 421),
// the explanation says what actually happened: the door, who called (never a secret), the
// cascade step that matched, the region and its source, the database that served (the
// response's own X-Meridian-Served-By), the status and the reason. A customer explains their
// own organization's requests and gets 404 for anyone else's. (503s: policy-drill.fault.test.ts.)
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sessionCookie } from '../../dev/testing/app';
import { query } from '../../dev/testing/db';
import { resetEnvCache } from '../../server/env';
import { contractFetch } from '../../dev/testing/contract';

const f = () => inject('faults');
const key = (org: string, region: string) => f().keys.find((k) => k.org === org && k.region === region)!.key;

interface Explained {
  request_id: string;
  door: string;
  method: string;
  route: string;
  identity: { kind: string; user_id: string | null; key_prefix: string | null; operator: boolean };
  org_id: string | null;
  policy: { version: string; scope: string } | null;
  hint_regions: string[];
  cascade: { step: string; value: string | null; outcome: string }[];
  region: string | null;
  source: string | null;
  target: string | null;
  reason_code: string;
  served_by: string | null;
  status: number;
  error_code: string | null;
}

let ops: string;
let bob: string;
let bobId: string;
let globexId: string;
let acmeId: string;

async function call(
  method: string,
  path: string,
  opts: { key?: string; cookie?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await contractFetch(`${f().baseUrl}${path}`, {
    method,
    headers: {
      ...(opts.key ? { Authorization: `Bearer ${opts.key}` } : {}),
      ...(opts.cookie ? { cookie: opts.cookie, origin: f().baseUrl } : {}),
      ...opts.headers,
    },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

async function explain(
  id: string,
  cookie = ops,
  path = '/v1/atlas/requests/',
): Promise<{ status: number; body: Explained }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await call('GET', `${path}${id}`, { cookie });
    if (r.status !== 404 || Date.now() > deadline) return r as { status: number; body: Explained };
    await new Promise((res) => setTimeout(res, 100)); // records are written every 250 ms
  }
}

/** What the response itself said, to hold the explanation against. */
function said(res: { status: number; headers: Headers }) {
  return {
    id: res.headers.get('X-Request-Id')!,
    status: res.status,
    region: res.headers.get('X-Region'),
    source: res.headers.get('X-Region-Source'),
    servedBy: res.headers.get('X-Meridian-Served-By'),
  };
}

beforeAll(async () => {
  process.env.AUTH_SECRET = f().authSecret;
  resetEnvCache();
  const users = await query<{ id: string; email: string; sv: number }>(
    f().adminPrimary,
    `SELECT id, email, session_version AS sv FROM users WHERE email IN ('ops@meridian.test', 'bob@globex.test')`,
  );
  const orgs = await query<{ id: string; slug: string }>(
    f().adminPrimary,
    `SELECT id, slug FROM organizations WHERE slug IN ('acme', 'globex')`,
  );
  globexId = orgs.find((o) => o.slug === 'globex')!.id;
  acmeId = orgs.find((o) => o.slug === 'acme')!.id;
  const opsRow = users.find((u) => u.email === 'ops@meridian.test')!;
  const bobRow = users.find((u) => u.email === 'bob@globex.test')!;
  bobId = bobRow.id;
  ops = await sessionCookie(opsRow.id, null, null, opsRow.sv);
  bob = await sessionCookie(bobRow.id, globexId, null, bobRow.sv);
});

describe('explanations match what happened', () => {
  it('REST, a region key, 200: the key step, its region, the replica that served', async () => {
    const k = key('globex', 'lax1');
    const res = await call('GET', '/v1/projects', { key: k });
    const s = said(res);
    expect(s.status).toBe(200);
    const { status, body: e } = await explain(s.id);
    expect(status).toBe(200);
    expect(e).toMatchObject({
      request_id: s.id,
      door: 'rest',
      method: 'GET',
      route: 'GET /projects',
      org_id: globexId,
      region: s.region,
      source: s.source,
      served_by: s.servedBy,
      status: 200,
      error_code: null,
      identity: { kind: 'api_key', key_prefix: k.split('_').slice(0, 3).join('_'), user_id: null },
      hint_regions: ['lax1'],
      policy: { scope: globexId },
    });
    expect(JSON.stringify(e)).not.toContain(k.split('_')[3]); // never the secret
    expect(e.cascade.find((c) => c.outcome === 'matched')).toMatchObject({ step: 'key', value: 'lax1' });
    expect(e.target).toBe(s.servedBy);
    expect(['replica_ok', 'bookmark_not_replayed', 'replica_lagging']).toContain(e.reason_code);
  });

  it('tRPC, a browser session, 200: the session, and the door', async () => {
    const input = encodeURIComponent(JSON.stringify({ json: { region: 'ams1' } }));
    const res = await call('GET', `/api/trpc/projects.list?input=${input}`, {
      cookie: bob,
      headers: { 'X-Region': 'ams1' },
    });
    const s = said(res);
    expect(s.status).toBe(200);
    const { body: e } = await explain(s.id);
    expect(e).toMatchObject({
      door: 'trpc',
      identity: { kind: 'session', user_id: bobId },
      region: 'ams1',
      source: 'header',
      served_by: s.servedBy,
      status: 200,
      hint_regions: ['ams1'],
    });
  });

  it('403: a region outside the policy’s allowed regions (acme may use sfo1 only)', async () => {
    const res = await call('GET', '/v1/projects', {
      key: f().globalKeys.find((g) => g.org === 'acme')!.key,
      headers: { 'X-Region': 'ams1' },
    });
    const s = said(res);
    expect(s.status).toBe(403);
    const { body: e } = await explain(s.id);
    expect(e).toMatchObject({
      status: 403,
      error_code: 'region_not_allowed',
      reason_code: 'region_not_allowed',
      target: null,
      served_by: s.servedBy, // the key's look-up, if it missed the gateway's cache
      org_id: acmeId,
    });
    expect(e.cascade.find((c) => c.outcome === 'matched')).toMatchObject({ step: 'header', value: 'ams1' });
  });

  it('421: a region key naming another region', async () => {
    const res = await call('GET', '/v1/projects', { key: key('globex', 'lax1'), headers: { 'X-Region': 'ams1' } });
    const s = said(res);
    expect(s.status).toBe(421);
    const { body: e } = await explain(s.id);
    expect(e).toMatchObject({ status: 421, reason_code: 'wrong_region', target: null, error_code: 'wrong_region' });
    // Point 1 already saw it: the header and the key's shape leave no region in common.
    expect(e.hint_regions).toEqual([]);
  });

  it('401: refused before any routing, the caller unknown', async () => {
    const forged = key('globex', 'lax1').replace(/.{4}$/, 'AAAA');
    const res = await call('GET', '/v1/projects', { key: forged });
    const s = said(res);
    expect(s.status).toBe(401);
    const { body: e } = await explain(s.id);
    expect(e).toMatchObject({ status: 401, reason_code: 'unauthenticated', identity: { kind: 'anonymous' } });
  });

  it('a customer explains their own organization’s requests, and gets 404 for another’s', async () => {
    const own = said(await call('GET', '/v1/projects', { key: key('globex', 'sfo1') }));
    const other = said(await call('GET', '/v1/projects', { key: key('acme', 'sfo1') }));
    await explain(other.id); // written by now
    const mine = await explain(own.id, bob, '/v1/requests/');
    expect([mine.status, mine.body.request_id]).toEqual([200, own.id]);
    const theirs = await call('GET', `/v1/requests/${other.id}`, { cookie: bob });
    expect(theirs.status).toBe(404);
    const unknown = await call('GET', `/v1/requests/${other.id.replace(/.$/, other.id.endsWith('0') ? '1' : '0')}`, {
      cookie: bob,
    });
    expect(unknown.status).toBe(404);
    expect((theirs.body as { error: { code: string } }).error.code).toBe(
      (unknown.body as { error: { code: string } }).error.code,
    );
  });
});
