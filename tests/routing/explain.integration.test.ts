// Explain a request, through the REST door against a real primary: an operator explains any
// request (with its whole trace); a customer explains their organization's requests only (trace
// filtered to their organization), and gets the same 404 for another organization's request as
// for an unknown one; garbage is a 400; an expired ID a 404 saying records are kept 24 hours.
// Records are stored with recordDecision + flushDecisions (the request middleware's wiring has
// its own end-to-end tests).
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { disconnectAll, poolOf, primary } from '../../server/db/client';
import { resetEnvCache } from '../../server/env';
import type { DemoCredentials } from '../../dev/demo/seed';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { sampleDecision, storeDecisions, testRequestId } from '../../dev/testing/decisions';
import type { DecisionRecord } from '../../server/routing/decision';
import { flushDecisions, recordDecision, resetDecisionLog } from '../../server/routing/decision-log';
import { REASON_TEXT } from '../../server/routing/explanation';

interface ErrorBody {
  error: { code: string; message: string; request_id: string };
}
interface Explained {
  request_id: string;
  org_id: string | null;
  reason_code: string;
  reason: string;
  identity: { kind: string; key_prefix: string | null; user_id: string | null };
  policy: { version: string } | null;
  cascade: { step: string; value: string | null; outcome: string }[];
  candidates: { target: string; chosen: boolean; dropped: string | null; dropped_reason: string | null }[];
  trace: { request_id: string; route: string }[];
  trace_truncated: boolean;
  status: number;
  latency_ms: number;
  served_by: string | null;
  lag_ms: number | null;
}

let creds: DemoCredentials;
let primaryUrl: string;
let ops: string;
let alice: string;
let bob: string;
let acmeKey: string;
let acmeOrg: string;
let globexOrg: string;
const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
let acmeFirst: DecisionRecord;
let acmeLater: DecisionRecord;
let globexSame: DecisionRecord;

const explainAtlas = (id: string, cookie = ops) =>
  rest<Explained & ErrorBody>('GET', `/v1/atlas/requests/${encodeURIComponent(id)}`, { headers: { cookie } });
const explainOwn = (id: string, headers: Record<string, string>) =>
  rest<Explained & ErrorBody>('GET', `/v1/requests/${encodeURIComponent(id)}`, { headers });

beforeAll(async () => {
  ({
    credentials: creds,
    urls: { primary: primaryUrl },
  } = await useDemoDatabase('explain'));
  await resetDecisionLog();
  const db = primary();
  acmeOrg = (await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } })).id;
  globexOrg = (await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } })).id;
  const user = (email: string) => db.user.findUniqueOrThrow({ where: { email } });
  ops = await sessionCookie((await user('ops@meridian.test')).id, null);
  alice = await sessionCookie((await user('alice@acme.test')).id, acmeOrg);
  bob = await sessionCookie((await user('bob@globex.test')).id, globexOrg);
  acmeKey = creds.api_keys.find((k) => k.org === 'acme')!.key;

  const now = Date.now();
  acmeFirst = sampleDecision({
    at: now - 2_000,
    trace_id: trace,
    org_id: acmeOrg,
    reason_code: 'replica_lagging',
    target: 'primary',
    served_by: 'primary',
    degraded: 'replica_lagging',
    candidates: [
      { target: 'replica:sfo1', chosen: false, dropped: 'replica_lagging', lag_ms: 2400, signal_age_ms: 200 },
      { target: 'primary', chosen: true },
    ],
  });
  acmeLater = sampleDecision({ at: now - 1_000, trace_id: trace, org_id: acmeOrg, route: 'GET /me' });
  globexSame = sampleDecision({ at: now - 1_500, trace_id: trace, org_id: globexOrg, route: 'GET /notifications' });
  for (const r of [acmeFirst, acmeLater, globexSame]) recordDecision(r);
  await flushDecisions();
});

describe('explain a request', () => {
  it('an operator sees the whole story, and the requests of the trace within its organization', async () => {
    const res = await explainAtlas(acmeFirst.request_id);
    expect(res.status).toBe(200);
    const b = res.body;
    expect(b.request_id).toBe(acmeFirst.request_id);
    expect(b.org_id).toBe(acmeOrg);
    expect(b.reason_code).toBe('replica_lagging');
    expect(b.reason).toBe(REASON_TEXT.replica_lagging);
    expect(b.identity).toEqual({
      kind: 'api_key',
      key_id: null,
      key_prefix: 'mk_sfo1_AbCdEfGhIjKl',
      user_id: null,
      operator: false,
    });
    expect(b.policy?.version).toBe('1.3');
    expect(b.cascade).toEqual([
      { step: 'subdomain', value: null, outcome: 'absent' },
      { step: 'header', value: 'sfo1', outcome: 'matched' },
    ]);
    expect(b.candidates[0]).toMatchObject({ target: 'replica:sfo1', chosen: false, dropped: 'replica_lagging' });
    expect(b.candidates[0]!.dropped_reason).toBe(REASON_TEXT.replica_lagging);
    expect(b.candidates[1]).toMatchObject({ target: 'primary', chosen: true, dropped: null });
    expect([b.status, b.served_by, b.latency_ms]).toEqual([200, 'primary', 3.2]);
    // The others of its trace, oldest first, itself excluded; only its own organization's: a
    // trace ID is the client's to choose, and globex naming acme's trace joins nothing to it.
    expect(b.trace.map((t) => t.request_id)).toEqual([acmeLater.request_id]);
    expect(b.trace_truncated).toBe(false);
    expect(res.headers.get('X-Meridian-Served-By')).toBe('primary');
  });

  it('a customer explains their own organization’s request (session or API key); the trace shows only theirs', async () => {
    const callers: Record<string, string>[] = [{ cookie: alice }, { authorization: `Bearer ${acmeKey}` }];
    for (const headers of callers) {
      const res = await explainOwn(acmeFirst.request_id, headers);
      expect(res.status).toBe(200);
      expect(res.body.request_id).toBe(acmeFirst.request_id);
      expect(res.body.trace.map((t) => t.request_id)).toEqual([acmeLater.request_id]);
    }
  });

  it('another organization’s request is a 404, exactly like an unknown one', async () => {
    const theirs = await explainOwn(globexSame.request_id, { cookie: alice });
    // The same moment: the message may say more about old IDs (a restart of the primary), never about whose.
    const unknown = await explainOwn(testRequestId('sfo1', globexSame.at), { cookie: alice });
    expect([theirs.status, theirs.body.error.code]).toEqual([404, 'not_found']);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
    expect(theirs.body.error.message).toBe(unknown.body.error.message);
    expect(theirs.body.error.message).toMatch(/24 hours/);
    expect(JSON.stringify(theirs.body)).not.toContain(globexOrg);
    // And the other way round.
    const back = await explainOwn(acmeFirst.request_id, { cookie: bob });
    expect([back.status, back.body.error.code]).toEqual([404, 'not_found']);
  });

  it('garbage is a 400 invalid_request on both routes, never a 500', async () => {
    for (const bad of [
      'nope',
      'req_sfo1-123-abc',
      'req_SFO1-1770564159296-7d4b9e1f3a5b',
      'req_sfo1-1770564159296-7d4b9e1f3a5bX',
      "req_sfo1-1770564159296-7d4b9e1f3a5'; DROP TABLE request_decision_batches; --",
      'x'.repeat(99),
    ]) {
      const a = await explainAtlas(bad);
      const c = await explainOwn(bad, { cookie: alice });
      expect([a.status, a.body.error.code], bad).toEqual([400, 'invalid_request']);
      expect([c.status, c.body.error.code], bad).toEqual([400, 'invalid_request']);
    }
    const long = await explainAtlas('x'.repeat(5_000));
    expect([long.status, long.body.error.code]).toEqual([400, 'invalid_request']);
  });

  it('a customer gets 403 on the Atlas route; nobody explains without credentials', async () => {
    const res = await explainAtlas(acmeFirst.request_id, alice);
    expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
    const anon = await explainOwn(acmeFirst.request_id, {});
    expect([anon.status, anon.body.error.code]).toEqual([401, 'unauthenticated']);
  });

  it('an ID older than 24 hours is a 404 saying records are kept 24 hours', async () => {
    const old = sampleDecision({ at: Date.now() - 25 * 60 * 60_000, org_id: acmeOrg });
    recordDecision(old);
    await flushDecisions();
    const res = await explainAtlas(old.request_id);
    expect([res.status, res.body.error.code]).toEqual([404, 'not_found']);
    expect(res.body.error.message).toMatch(/kept 24 hours/);
  });

  it('finds a record still in this process’s buffer, and waits about a second for another gateway’s batch', async () => {
    const buffered = sampleDecision({ org_id: acmeOrg });
    recordDecision(buffered); // not flushed
    expect((await explainAtlas(buffered.request_id)).status).toBe(200);

    // Another gateway's record lands 250 ms after the question: after its first look, most likely,
    // and with most of the second of looks left for the store's own connect and insert.
    const late = sampleDecision({ org_id: acmeOrg });
    const asking = explainOwn(late.request_id, { cookie: alice });
    await new Promise((r) => setTimeout(r, 250));
    await storeDecisions(primaryUrl, [{ ...late, gateway_region: 'lax1' }]);
    const res = await asking;
    expect([res.status, res.body.request_id]).toEqual([200, late.request_id]);

    // Never written anywhere: a 404 after about a second, not sooner, not much later.
    const started = Date.now();
    const missing = await explainOwn(testRequestId('sfo1'), { cookie: alice });
    expect(missing.status).toBe(404);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('unknown recent IDs cost at most five look-ups each on the primary, and the 404s share one more', async () => {
    const pool = poolOf(primary());
    const spy = vi.spyOn(pool, 'query');
    try {
      const asked = await Promise.all([1, 2, 3].map(() => explainOwn(testRequestId('sfo1'), { cookie: alice })));
      expect(asked.map((r) => r.status)).toEqual([404, 404, 404]);
      const text = (q: unknown) => String(typeof q === 'string' ? q : (q as { text: string }).text);
      // The log's own batched writes are not the explanations' work, nor is the caller's identity
      // (the identity cache reads it from the primary while a recent change is pinned).
      const identity = /FROM "public"\."(users|user_settings|memberships|organizations|organization_regions)"/;
      const statements = spy.mock.calls
        .map(([q]) => text(q))
        .filter((q) => !/^\s*INSERT/i.test(q) && !identity.test(q));
      expect(statements.filter((q) => /FROM request_decision_batches/.test(q)).length).toBeLessThanOrEqual(15);
      expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(16);
    } finally {
      spy.mockRestore();
    }
  });

  it('with the primary unreachable (records live only there): 503 primary_unavailable with Retry-After', async () => {
    process.env.DATABASE_URL = 'postgresql://meridian:nope@127.0.0.1:1/nothing';
    resetEnvCache();
    await disconnectAll();
    try {
      const res = await explainAtlas(acmeFirst.request_id);
      expect([res.status, res.body.error.code]).toEqual([503, 'primary_unavailable']);
      expect(res.headers.get('Retry-After')).toMatch(/^\d+$/);
    } finally {
      process.env.DATABASE_URL = primaryUrl;
      resetEnvCache();
      await disconnectAll();
    }
    expect((await explainAtlas(acmeFirst.request_id)).status).toBe(200);
  });

  it('lists at most 50 of a long trace, oldest first, and says there are more', async () => {
    const long = 'aaaabbbbccccdddd0000111122223333';
    const base = Date.now() - 10_000;
    const all = Array.from({ length: 60 }, (_, i) =>
      sampleDecision({ at: base + i * 10, trace_id: long, org_id: acmeOrg }),
    );
    for (const r of all) recordDecision(r);
    await flushDecisions();
    const res = await explainAtlas(all[0]!.request_id);
    expect(res.body.trace).toHaveLength(50);
    expect(res.body.trace[0]!.request_id).toBe(all[1]!.request_id);
    expect(res.body.trace_truncated).toBe(true);
  });
});
