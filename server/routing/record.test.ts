import { describe, expect, it } from 'vitest';
import type { GateDecision } from '../db/read-gate';
import { buildDecisionRecord, traceIdOf, type RecordInput } from './record';

const base: RecordInput = {
  requestId: 'req_sfo1-1764547200000-0123456789abcdef',
  at: 1764547200000,
  door: 'rest',
  method: 'GET',
  route: 'GET /v1/projects',
  gatewayRegion: 'sfo1',
  gatewayId: 'abc123',
  identity: { kind: 'api_key', key_id: 'key_1' },
  orgId: 'org_1',
  routeClass: 'list',
  policy: { version: '1.4', scope: 'org_1' },
  hintRegions: ['sfo1'],
  cascade: [{ step: 'subdomain', value: 'sfo1', outcome: 'matched' }],
  region: { region: 'sfo1', source: 'subdomain' },
  gatewayRoute: false,
  decisions: [],
  servedBy: undefined,
  degraded: undefined,
  status: 200,
  errorCode: undefined,
  latencyMs: 3.14159,
  roundTrips: { primary: 0, replicas: { sfo1: 1 }, connects: 0 },
};

const lagged: GateDecision = {
  kind: 'read',
  region: 'sfo1',
  target: 'primary',
  reason: 'replica_lagging',
  candidates: [
    { target: 'replica:sfo1', chosen: false, dropped: 'replica_lagging', lag_ms: 4200, signal_age_ms: 180 },
    { target: 'primary', chosen: true },
  ],
};

describe('decision records', () => {
  it('a read the replica could not serve: target, reason, lag and signal age then', () => {
    const r = buildDecisionRecord({ ...base, decisions: [lagged], servedBy: 'primary', degraded: 'replica_lagging' });
    expect(r).toMatchObject({
      target: 'primary',
      reason_code: 'replica_lagging',
      lag_ms: 4200,
      signal_age_ms: 180,
      served_by: 'primary',
      degraded: 'replica_lagging',
      latency_ms: 3.14,
      region: 'sfo1',
      source: 'subdomain',
    });
    expect(r.candidates).toHaveLength(2);
  });

  it('a write is described by the write gate, whatever it read before', () => {
    const write: GateDecision = {
      kind: 'write',
      region: 'sfo1',
      target: 'primary',
      reason: 'write_primary',
      candidates: [{ target: 'primary', chosen: true }],
    };
    const r = buildDecisionRecord({ ...base, method: 'POST', routeClass: 'write', decisions: [lagged, write] });
    expect([r.target, r.reason_code]).toEqual(['primary', 'write_primary']);
  });

  it('a refused read (nothing passed the gate) has no target', () => {
    const refused: GateDecision = {
      kind: 'read',
      region: 'sfo1',
      target: null,
      reason: 'no_candidate',
      candidates: [],
    };
    const r = buildDecisionRecord({ ...base, decisions: [refused], status: 503, errorCode: 'region_unavailable' });
    expect([r.target, r.reason_code, r.error_code]).toEqual([null, 'no_candidate', 'region_unavailable']);
  });

  it('a fan-out lists every region’s read', () => {
    const one = (region: string): GateDecision => ({
      kind: 'read',
      region,
      target: `replica:${region}`,
      reason: 'replica_ok',
      candidates: [{ target: `replica:${region}`, chosen: true }],
    });
    const r = buildDecisionRecord({
      ...base,
      region: { region: 'sfo1', source: 'fan-out', fanOut: ['lax1', 'sfo1'] },
      decisions: [one('lax1'), one('sfo1')],
    });
    expect([r.target, r.reason_code, r.candidates.map((c) => c.target)]).toEqual([
      'fan-out',
      'fan_out',
      ['replica:lax1', 'replica:sfo1'],
    ]);
  });

  it.each([
    ['unauthenticated', 401, 'unauthenticated'],
    ['invalid_region', 400, 'invalid_region'],
    ['region_required', 400, 'region_required'],
    ['region_not_allowed', 403, 'region_not_allowed'],
    ['wrong_region', 421, 'wrong_region'],
    ['rate_limited', 429, 'refused'],
  ] as const)('refused before routing with %s → %s', (code, status, reason) => {
    const r = buildDecisionRecord({ ...base, region: undefined, cascade: [], status, errorCode: code });
    expect([r.target, r.reason_code, r.status, r.error_code]).toEqual([null, reason, status, code]);
  });

  it('a refusal by point 2’s hint recheck', () => {
    const r = buildDecisionRecord({
      ...base,
      region: undefined,
      status: 400,
      errorCode: 'invalid_region',
      hintRefused: true,
    });
    expect(r.reason_code).toBe('hint_outside_candidates');
  });

  it('no database touched: a service route, or the gateway’s own memory', () => {
    expect(buildDecisionRecord({ ...base, gatewayRoute: true }).reason_code).toBe('gateway_route');
    expect(buildDecisionRecord(base).reason_code).toBe('no_database');
  });

  it('trace ids only from a valid traceparent', () => {
    expect(traceIdOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(traceIdOf('00-00000000000000000000000000000000-00f067aa0ba902b7-01')).toBeUndefined();
    expect(traceIdOf('garbage')).toBeUndefined();
    expect(traceIdOf(null)).toBeUndefined();
  });
});
