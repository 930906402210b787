import { describe, expect, it } from 'vitest';
import { gatewayId } from '../db/write-position-state';
import { BUILT_IN_POLICY } from './applied';
import { requestDecisionRecord, type RequestFacts } from './decision-record';

const facts = (over: Partial<RequestFacts> = {}): RequestFacts => ({
  requestId: 'req_sfo1-1-abc',
  traceparent: null,
  spanTraceId: '0'.repeat(32),
  at: 1_700_000_000_000,
  door: 'rest',
  method: 'GET',
  route: 'GET /projects',
  gatewayRegion: 'sfo1',
  identity: { kind: 'anonymous' },
  orgId: null,
  routeClass: 'list',
  policy: undefined,
  hints: { regions: ['sfo1'], narrowed: true },
  cascade: [],
  region: { region: 'sfo1', source: 'subdomain' },
  gatewayRoute: false,
  decisions: [],
  servedBy: undefined,
  degraded: undefined,
  status: 200,
  errorCode: undefined,
  latencyMs: 1.234,
  roundTrips: { primary: 0, replicas: {}, connects: 0 },
  ...over,
});

describe("a request's decision record", () => {
  it('names the caller by ID only, never by a secret', () => {
    const key = requestDecisionRecord(
      facts({
        identity: {
          kind: 'api_key',
          keyId: 'key_1',
          keyPrefix: 'mk_sfo1_abcd',
          region: 'sfo1',
          scopes: ['read'],
          org: { id: 'org_1', slug: 'a', defaultRegion: null, allowedRegions: [], status: 'active', homeRegion: null },
        },
      }),
    );
    expect(key.identity).toEqual({ kind: 'api_key', key_id: 'key_1', key_prefix: 'mk_sfo1_abcd' });
    const person = requestDecisionRecord(
      facts({
        identity: {
          kind: 'session',
          userId: 'usr_1',
          sessionId: null,
          email: 'a@b.test',
          platformOperator: true,
          sso: null,
          org: null,
          orgRole: null,
          project: null,
          projectRegion: null,
          userRegion: null,
        },
      }),
    );
    expect(person.identity).toEqual({ kind: 'session', user_id: 'usr_1', operator: true });
    expect(requestDecisionRecord(facts()).identity).toEqual({ kind: 'anonymous' });
  });

  it("takes the client's valid traceparent, else the span's trace, else none", () => {
    const client = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    const span = 'c'.repeat(32);
    expect(requestDecisionRecord(facts({ traceparent: client, spanTraceId: span })).trace_id).toBe('a'.repeat(32));
    expect(requestDecisionRecord(facts({ traceparent: 'junk', spanTraceId: span })).trace_id).toBe(span);
    expect(requestDecisionRecord(facts())).not.toHaveProperty('trace_id');
  });

  it("records the policy by version and whose it is, this gateway process, and the hints' regions", () => {
    const r = requestDecisionRecord(facts({ policy: BUILT_IN_POLICY }));
    expect(r.policy).toEqual({ version: '0.0', scope: 'default' });
    expect(requestDecisionRecord(facts({ policy: { ...BUILT_IN_POLICY, orgId: 'org_1' } })).policy?.scope).toBe(
      'org_1',
    );
    expect(requestDecisionRecord(facts()).policy).toBeNull();
    expect(r).toMatchObject({ gateway_id: gatewayId(), hint_regions: ['sfo1'], region: 'sfo1', source: 'subdomain' });
  });
});
