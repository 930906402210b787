// Decision records for tests that exercise storage and explain without the request middleware:
// a plausible record of a served read, with whatever a test overrides; what the primary stores.
import { randomBytes } from 'node:crypto';
import type { DecisionRecord } from '../../server/routing/decision';
import { decodeBatch, toBatches } from '../../server/routing/decision-batch';
import { batchParameters, insertBatches } from '../../server/routing/decisions.sql';
import { query } from './db';

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
    round_trips: { primary: 0, replicas: { sfo1: 1 }, connects: 0 },
    ...overrides,
  };
}

/** Every stored record (decoded from request_decision_batches) whose request ID is in `ids`. */
export async function storedDecisions(primaryUrl: string, ids: string[]): Promise<DecisionRecord[]> {
  const wanted = new Set(ids);
  const rows = await query<{ first_at: Date; payload: Buffer }>(
    primaryUrl,
    'SELECT first_at, payload FROM request_decision_batches',
  );
  return rows.flatMap((r) => decodeBatch(r.payload, r.first_at.getTime())).filter((r) => wanted.has(r.request_id));
}

/** Stores `records` as another gateway's flush would (one INSERT of their batches), making partitions. */
export async function storeDecisions(primaryUrl: string, records: DecisionRecord[]): Promise<void> {
  const batches = await toBatches(records);
  const times = batches.map((b) => b.firstAt);
  const iso = (ms: number) => new Date(ms).toISOString();
  await query(primaryUrl, 'SELECT meridian_decision_partitions($1, $2, $3)', [
    iso(Math.min(...times)),
    iso(Math.max(...times)),
    iso(0),
  ]);
  await query(primaryUrl, insertBatches.text, batchParameters(batches));
}
