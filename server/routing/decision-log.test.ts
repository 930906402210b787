// A decision record survives its trip through the table's columns and lean `detail` unchanged.
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from './decision';
import { detailOf, fromRow } from './decision-row';

const record: DecisionRecord = {
  request_id: 'req_lax1-1770564159296-7d4b9e1f3a5b',
  trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
  at: 1770564159296,
  door: 'trpc',
  method: 'POST',
  route: 'projects.create',
  gateway_region: 'lax1',
  gateway_id: '0a1b2c3d4e5f',
  identity: { kind: 'session', user_id: 'usr_0000000000000000000000000a' },
  org_id: 'org_0000000000000000000000000b',
  route_class: 'write',
  policy: { version: '2.7', scope: 'org_0000000000000000000000000b' },
  hint_regions: ['lax1'],
  cascade: [{ step: 'subdomain', value: 'lax1', outcome: 'matched' }],
  region: 'lax1',
  source: 'subdomain',
  candidates: [{ target: 'primary', chosen: true }],
  target: 'primary',
  reason_code: 'write_primary',
  served_by: null,
  degraded: null,
  lag_ms: null,
  signal_age_ms: null,
  status: 201,
  error_code: null,
  latency_ms: 14.5,
};

const row = (r: DecisionRecord) => ({
  request_id: r.request_id,
  at: new Date(r.at),
  trace_id: r.trace_id ?? null,
  org_id: r.org_id,
  gateway_region: r.gateway_region,
  status: r.status,
  reason_code: r.reason_code,
  detail: JSON.parse(JSON.stringify(detailOf(r))) as Record<string, unknown>,
});

describe('decision record storage', () => {
  it('keeps columns out of detail and leaves out nulls and empty lists', () => {
    const d = detailOf({ ...record, cascade: [] });
    for (const k of ['request_id', 'at', 'trace_id', 'org_id', 'gateway_region', 'status', 'reason_code'])
      expect(d).not.toHaveProperty(k);
    for (const k of ['served_by', 'degraded', 'lag_ms', 'signal_age_ms', 'error_code', 'cascade'])
      expect(d).not.toHaveProperty(k);
    expect(d.door).toBe('trpc');
  });

  it('round-trips a record (with and without a trace, nulls and empty lists)', () => {
    expect(fromRow(row(record))).toEqual(record);
    const bare: DecisionRecord = { ...record, trace_id: undefined, hint_regions: [], candidates: [], region: null };
    delete bare.trace_id;
    expect(fromRow(row(bare))).toEqual(bare);
  });
});

describe('compact lists', () => {
  it('round-trips cascade values holding colons and candidates with every field', () => {
    const r: DecisionRecord = {
      ...record,
      cascade: [
        { step: 'subdomain', outcome: 'absent' },
        { step: 'header', value: 'x:y:z', outcome: 'invalid' },
        { step: 'key', value: 'lax1', outcome: 'matched' },
      ],
      candidates: [
        { target: 'replica:lax1', chosen: false, dropped: 'replica_lagging', lag_ms: 1800, signal_age_ms: 250 },
        { target: 'replica:ams1', chosen: false, signal_age_ms: 0 },
        { target: 'primary', chosen: true, lag_ms: 0 },
      ],
    };
    expect(fromRow(row(r))).toEqual(r);
    expect(detailOf(r).cascade).toEqual(['subdomain:absent', 'header:invalid:x:y:z', 'key:matched:lax1']);
  });
});
