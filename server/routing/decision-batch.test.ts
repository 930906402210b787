// Decision records survive their trip through a compressed batch unchanged, batches split by
// region and time, and a typical record costs a few dozen bytes.
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from './decision';
import { BATCH_SPAN_MS, batchKey, decodeBatch, decodeRequest, FORMAT, toBatches } from './decision-batch';

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
  cascade: [
    { step: 'subdomain', outcome: 'absent' },
    { step: 'header', value: 'x:y:z', outcome: 'invalid' },
    { step: 'key', value: 'lax1', outcome: 'matched' },
  ],
  region: 'lax1',
  source: 'subdomain',
  candidates: [
    { target: 'replica:lax1', chosen: false, dropped: 'replica_lagging', lag_ms: 1800, signal_age_ms: 250 },
    { target: 'replica:ams1', chosen: false, signal_age_ms: 0 },
    { target: 'primary', chosen: true, lag_ms: 0 },
  ],
  target: 'primary',
  reason_code: 'write_primary',
  served_by: null,
  degraded: null,
  lag_ms: null,
  signal_age_ms: null,
  status: 201,
  error_code: null,
  latency_ms: 14.5,
  round_trips: { primary: 1, replicas: { lax1: 2, ams1: 1 }, connects: 1 },
};

const { trace_id: _trace, ...untraced } = record;
let n = 0;
const testRequestId = (region: string, ms: number) => `req_${region}-${ms}-${(++n).toString(16).padStart(12, '0')}`;
/** The record above under a new request ID, without a trace unless given one. */
const sampleDecision = (o: Partial<DecisionRecord> = {}): DecisionRecord => ({
  ...untraced,
  request_id: testRequestId(o.gateway_region ?? 'lax1', o.at ?? record.at),
  ...o,
});

const roundTrip = async (rs: DecisionRecord[]) =>
  (await toBatches(rs)).flatMap((b) => decodeBatch(b.payload, b.firstAt));

describe('decision batches', () => {
  it('round-trip a record: with and without a trace, nulls, empty lists, no round trips', async () => {
    const bare: DecisionRecord = {
      ...record,
      request_id: 'req_lax1-1770564159300-000000000001',
      hint_regions: [],
      candidates: [],
      cascade: [],
      region: null,
      org_id: null,
      policy: null,
      round_trips: { primary: 0, replicas: {}, connects: 0 },
    };
    delete bare.trace_id;
    expect(await roundTrip([record, bare])).toEqual([record, bare]);
  });

  it('decode one request of a batch: that record as decodeBatch gives it, nothing for another ID', async () => {
    const rs = Array.from({ length: 50 }, (_, i) => sampleDecision({ at: record.at + i, status: 200 + i }));
    const [b] = await toBatches(rs);
    expect(decodeRequest(b!.payload, b!.firstAt, rs[37]!.request_id)).toEqual([rs[37]]);
    expect(decodeRequest(b!.payload, b!.firstAt, 'req_lax1-1770564159296-ffffffffffff')).toEqual([]);
  });

  it('group by the request ID’s region and at most BATCH_SPAN_MS of its time; a request ID once', async () => {
    const t = 1770564000000;
    const rs = [
      sampleDecision({ request_id: testRequestId('sfo1', t), at: t }),
      sampleDecision({ request_id: testRequestId('lax1', t + 10), at: t + 10 }),
      sampleDecision({ request_id: testRequestId('sfo1', t + BATCH_SPAN_MS - 1), at: t + BATCH_SPAN_MS - 1 }),
      sampleDecision({ request_id: testRequestId('sfo1', t + BATCH_SPAN_MS), at: t + BATCH_SPAN_MS }),
    ];
    const batches = await toBatches([...rs, rs[0]!]);
    expect(
      batches.map((b) => [b.region, b.firstAt - t, b.lastMs, b.records]).sort((a, b) => Number(a[1]) - Number(b[1])),
    ).toEqual([
      ['sfo1', 0, BATCH_SPAN_MS - 1, 2],
      ['lax1', 10, 0, 1],
      ['sfo1', BATCH_SPAN_MS, 0, 1],
    ]);
    expect(batches.every((b) => b.payload[0] === FORMAT)).toBe(true);
    expect(batchKey(rs[1]!)).toEqual({ region: 'lax1', ms: t + 10 });
  });

  it('list the organizations and traces a batch holds, for explain’s filters', async () => {
    const [b] = await toBatches([
      sampleDecision({ org_id: 'org_a', trace_id: 'trace-1' }),
      sampleDecision({ org_id: 'org_a' }),
      sampleDecision({ org_id: null, trace_id: 'trace-2' }),
    ]);
    expect(b!.orgIds).toEqual(['org_a']);
    expect(b!.traceIds.sort()).toEqual(['trace-1', 'trace-2']);
  });

  it('cost a few dozen bytes a record in a busy gateway’s batch', async () => {
    const t = Date.now();
    const rs = Array.from({ length: 250 }, (_, i) =>
      sampleDecision({
        request_id: testRequestId('sfo1', t + i * 4),
        at: t + i * 4,
        latency_ms: 2 + (i % 17) / 10,
        org_id: i % 3 === 0 ? 'org_0000000000000000000000000a' : 'org_0000000000000000000000000b',
      }),
    );
    const [b] = await toBatches(rs);
    expect(b!.payload.length / rs.length).toBeLessThan(60);
  });

  it('refuse a payload of a format this version does not know', async () => {
    const [b] = await toBatches([record]);
    const future = Buffer.from(b!.payload);
    future[0] = FORMAT + 1;
    expect(() => decodeBatch(future, b!.firstAt)).toThrow(/format/);
  });
});
