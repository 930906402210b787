// Decision records for tests that exercise storage and explain without the request middleware:
// a plausible record of a served read, with whatever a test overrides.
import { randomBytes } from 'node:crypto';
import type { DecisionRecord } from '../../server/routing/decision';

/** A request ID as the gateway makes them (server/ids), at `ms`. */
export function testRequestId(region = 'sfo1', ms = Date.now()): string {
  return `req_${region}-${ms}-${randomBytes(6).toString('hex')}`;
}

export function sampleDecision(overrides: Partial<DecisionRecord> = {}): DecisionRecord {
  const at = overrides.at ?? Date.now();
  return {
    request_id: testRequestId(overrides.gateway_region ?? 'sfo1', at),
    at,
    door: 'rest',
    method: 'GET',
    route: 'GET /projects',
    gateway_region: 'sfo1',
    gateway_id: 'a1b2c3d4e5f6',
    identity: { kind: 'api_key', key_prefix: 'mk_sfo1_AbCdEfGhIjKl' },
    org_id: null,
    route_class: 'list',
    policy: { version: '1.3', scope: 'default' },
    hint_regions: ['sfo1'],
    cascade: [
      { step: 'subdomain', outcome: 'absent' },
      { step: 'header', value: 'sfo1', outcome: 'matched' },
    ],
    region: 'sfo1',
    source: 'header',
    candidates: [
      { target: 'replica:sfo1', chosen: true, lag_ms: 12, signal_age_ms: 300 },
      { target: 'primary', chosen: false },
    ],
    target: 'replica:sfo1',
    reason_code: 'replica_ok',
    served_by: 'replica:sfo1',
    degraded: null,
    lag_ms: 12,
    signal_age_ms: 300,
    status: 200,
    error_code: null,
    latency_ms: 3.2,
    ...overrides,
  };
}
