// Decision records as stored: grouped into batches by request region and time, each batch's
// records column by column and deflated (docs/flows/routing-policy.md#storage).
import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';
import { parseRequestId } from '../ids/request-id';
import type { Candidate, CascadeStep, DecisionRecord, ReasonCode } from './decision';

/** The payload's first byte: how the rest is laid out. A reader refuses a format it does not know. */
export const FORMAT = 1;
/** One batch spans at most this long (explain looks for a request's batch this far back). */
export const BATCH_SPAN_MS = 60_000;

/** A batch as a row of `request_decision_batches`. */
export interface DecisionBatch {
  region: string;
  firstAt: number;
  lastMs: number;
  records: number;
  orgIds: string[];
  traceIds: string[];
  payload: Buffer;
}

/** Where a record is looked for: the region and time its request ID names. */
export function batchKey(r: DecisionRecord): { region: string; ms: number } {
  const p = parseRequestId(r.request_id);
  return p ? { region: p.region, ms: p.ms } : { region: r.gateway_region, ms: r.at };
}

// Columns, in order. Each holds one JSON value per record; runs of the same value (a route, a
// policy, a cascade) deflate to almost nothing, which a row per record could never do.
type Column = (r: DecisionRecord, firstAt: number) => unknown;

const packStep = (c: CascadeStep) =>
  c.value === undefined ? `${c.step}:${c.outcome}` : `${c.step}:${c.outcome}:${c.value}`;

function unpackStep(s: string): CascadeStep {
  const [step = '', outcome = '', ...rest] = s.split(':');
  const out: CascadeStep = { step, outcome: outcome as CascadeStep['outcome'] };
  if (rest.length > 0) out.value = rest.join(':');
  return out;
}

function packCandidate(c: Candidate): (string | number | null)[] {
  const t: (string | number | null)[] = [
    c.target,
    c.chosen ? 1 : 0,
    c.dropped ?? null,
    c.lag_ms ?? null,
    c.signal_age_ms ?? null,
  ];
  while (t.length > 2 && t.at(-1) === null) t.pop();
  return t;
}

function unpackCandidate(t: (string | number | null)[]): Candidate {
  const [target, chosen, dropped, lag, age] = t;
  const out: Candidate = { target: String(target), chosen: chosen === 1 };
  if (dropped != null) out.dropped = dropped as ReasonCode;
  if (lag != null) out.lag_ms = Number(lag);
  if (age != null) out.signal_age_ms = Number(age);
  return out;
}

/** Round trips as `[primary, connects, region, n, …]`, or 0 when the request made none. */
function packTrips(t: DecisionRecord['round_trips']): (string | number)[] | 0 {
  const regions = Object.entries(t.replicas).filter(([, n]) => n > 0);
  if (t.primary === 0 && t.connects === 0 && regions.length === 0) return 0;
  return [t.primary, t.connects, ...regions.flat()];
}

function unpackTrips(v: unknown): DecisionRecord['round_trips'] {
  const out: DecisionRecord['round_trips'] = { primary: 0, replicas: {}, connects: 0 };
  if (!Array.isArray(v)) return out;
  out.primary = Number(v[0]) || 0;
  out.connects = Number(v[1]) || 0;
  for (let i = 2; i + 1 < v.length; i += 2) out.replicas[String(v[i])] = Number(v[i + 1]) || 0;
  return out;
}

const COLUMNS: [keyof DecisionRecord, Column][] = [
  ['request_id', (r) => r.request_id],
  ['at', (r, firstAt) => r.at - firstAt],
  ['trace_id', (r) => r.trace_id ?? null],
  ['door', (r) => r.door],
  ['method', (r) => r.method],
  ['route', (r) => r.route],
  ['gateway_region', (r) => r.gateway_region],
  ['gateway_id', (r) => r.gateway_id],
  ['identity', (r) => r.identity],
  ['org_id', (r) => r.org_id],
  ['route_class', (r) => r.route_class],
  ['policy', (r) => r.policy],
  ['hint_regions', (r) => r.hint_regions],
  ['cascade', (r) => r.cascade.map(packStep)],
  ['region', (r) => r.region],
  ['source', (r) => r.source],
  ['candidates', (r) => r.candidates.map(packCandidate)],
  ['target', (r) => r.target],
  ['reason_code', (r) => r.reason_code],
  ['served_by', (r) => r.served_by],
  ['degraded', (r) => r.degraded],
  ['lag_ms', (r) => r.lag_ms],
  ['signal_age_ms', (r) => r.signal_age_ms],
  ['status', (r) => r.status],
  ['error_code', (r) => r.error_code],
  ['latency_ms', (r) => Math.round(r.latency_ms * 10) / 10],
  ['round_trips', (r) => packTrips(r.round_trips)],
];

const deflate = promisify(deflateRaw);

/** Deflated on libuv's thread pool: a flush's compression never holds up the event loop. */
async function encode(records: DecisionRecord[], firstAt: number): Promise<Buffer> {
  const columns = COLUMNS.map(([, get]) => records.map((r) => get(r, firstAt)));
  const body = await deflate(JSON.stringify(columns), { level: 6 });
  return Buffer.concat([Buffer.from([FORMAT]), body]);
}

/** A batch's columns, after its format byte. */
function columnsOf(payload: Buffer): unknown[][] {
  if (payload[0] !== FORMAT) throw new Error(`decision batch format ${payload[0]} is not one this version reads`);
  return JSON.parse(inflateRawSync(payload.subarray(1)).toString('utf8')) as unknown[][];
}

const COLUMN_INDEX = new Map(COLUMNS.map(([name], i) => [name, i]));

/** Record `i` of a batch's columns. */
function recordAt(columns: unknown[][], i: number, firstAt: number): DecisionRecord {
  const v = (name: keyof DecisionRecord) => columns[COLUMN_INDEX.get(name)!]![i];
  const traceId = v('trace_id') as string | null;
  return {
    request_id: v('request_id') as string,
    ...(traceId ? { trace_id: traceId } : {}),
    at: firstAt + Number(v('at')),
    door: v('door') as DecisionRecord['door'],
    method: v('method') as string,
    route: v('route') as string,
    gateway_region: v('gateway_region') as string,
    gateway_id: v('gateway_id') as string,
    identity: v('identity') as DecisionRecord['identity'],
    org_id: v('org_id') as string | null,
    route_class: v('route_class') as DecisionRecord['route_class'],
    policy: v('policy') as DecisionRecord['policy'],
    hint_regions: v('hint_regions') as string[],
    cascade: (v('cascade') as string[]).map(unpackStep),
    region: v('region') as string | null,
    source: v('source') as string | null,
    candidates: (v('candidates') as (string | number | null)[][]).map(unpackCandidate),
    target: v('target') as string | null,
    reason_code: v('reason_code') as ReasonCode,
    served_by: v('served_by') as string | null,
    degraded: v('degraded') as string | null,
    lag_ms: v('lag_ms') as number | null,
    signal_age_ms: v('signal_age_ms') as number | null,
    status: v('status') as number,
    error_code: v('error_code') as string | null,
    latency_ms: v('latency_ms') as number,
    round_trips: unpackTrips(v('round_trips')),
  };
}

/** A batch's records as they were recorded (latency to a tenth of a millisecond). */
export function decodeBatch(payload: Buffer, firstAt: number): DecisionRecord[] {
  const columns = columnsOf(payload);
  return columns[0]!.map((_, i) => recordAt(columns, i, firstAt));
}

/** The records of a batch with request ID `requestId`: only they are built (a batch holds hundreds). */
export function decodeRequest(payload: Buffer, firstAt: number, requestId: string): DecisionRecord[] {
  const columns = columnsOf(payload);
  const out: DecisionRecord[] = [];
  columns[COLUMN_INDEX.get('request_id')!]!.forEach((id, i) => {
    if (id === requestId) out.push(recordAt(columns, i, firstAt));
  });
  return out;
}

/**
 * `records` as batches: one per request region and BATCH_SPAN_MS of request time, a request ID
 * kept once. A backlog after an outage makes several batches, never one that spans hours.
 */
export async function toBatches(records: DecisionRecord[]): Promise<DecisionBatch[]> {
  const seen = new Set<string>();
  const groups = new Map<string, { region: string; first: number; items: DecisionRecord[] }>();
  const keyed = records
    .filter((r) => !seen.has(r.request_id) && seen.add(r.request_id))
    .map((r) => ({ r, k: batchKey(r) }))
    .sort((a, b) => a.k.ms - b.k.ms);
  const out: Promise<DecisionBatch>[] = [];
  const close = (g: { region: string; first: number; items: DecisionRecord[] }) => {
    const last = Math.max(...g.items.map((r) => batchKey(r).ms));
    out.push(
      encode(g.items, g.first).then((payload) => ({
        region: g.region,
        firstAt: g.first,
        lastMs: last - g.first,
        records: g.items.length,
        orgIds: [...new Set(g.items.flatMap((r) => (r.org_id ? [r.org_id] : [])))],
        traceIds: [...new Set(g.items.flatMap((r) => (r.trace_id ? [r.trace_id] : [])))],
        payload,
      })),
    );
  };
  for (const { r, k } of keyed) {
    let g = groups.get(k.region);
    if (g && k.ms - g.first >= BATCH_SPAN_MS) {
      close(g);
      g = undefined;
    }
    if (!g) groups.set(k.region, (g = { region: k.region, first: k.ms, items: [] }));
    g.items.push(r);
  }
  for (const g of groups.values()) close(g);
  return Promise.all(out);
}
