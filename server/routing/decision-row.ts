// A decision record as a row of `request_decisions`: its own columns, the rest packed into
// `detail` (compactly), and back.
import type { Candidate, CascadeStep, DecisionRecord, ReasonCode } from './decision';

/** The table's columns; the rest of the record goes into `detail`. */
export const COLUMNS = ['request_id', 'at', 'trace_id', 'org_id', 'gateway_region', 'status', 'reason_code'] as const;

// The two lists every record has are stored compactly (a jsonb object repeats its keys in every
// row): a cascade step as "step:outcome" or "step:outcome:value", a candidate as
// [target, chosen 0|1, dropped, lag_ms, signal_age_ms] without trailing nulls. Measured on a
// record with the full nine-step cascade: see docs/flows/routing-policy.md.
type StoredCandidate = [string, 0 | 1, string?, number?, number?] | (string | number | null)[];

function packStep(c: CascadeStep): string {
  return c.value === undefined ? `${c.step}:${c.outcome}` : `${c.step}:${c.outcome}:${c.value}`;
}

function unpackStep(s: string): CascadeStep {
  const [step = '', outcome = '', ...rest] = s.split(':');
  const out: CascadeStep = { step, outcome: outcome as CascadeStep['outcome'] };
  if (rest.length > 0) out.value = rest.join(':');
  return out;
}

function packCandidate(c: Candidate): StoredCandidate {
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

function unpackCandidate(t: StoredCandidate): Candidate {
  const [target, chosen, dropped, lag, age] = t;
  const out: Candidate = { target: String(target), chosen: chosen === 1 };
  if (dropped != null) out.dropped = dropped as ReasonCode;
  if (lag != null) out.lag_ms = Number(lag);
  if (age != null) out.signal_age_ms = Number(age);
  return out;
}

/**
 * The record's `detail` column: every field not stored in a column of its own, without nulls,
 * empty lists and absent optional fields (rows stay lean; `fromRow` restores them).
 */
export function detailOf(record: DecisionRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    if ((COLUMNS as readonly string[]).includes(k)) continue;
    if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  if (out.cascade) out.cascade = record.cascade.map(packStep);
  if (out.candidates) out.candidates = record.candidates.map(packCandidate);
  return out;
}

export interface DecisionRow {
  request_id: string;
  at: Date;
  trace_id: string | null;
  org_id: string | null;
  gateway_region: string;
  status: number;
  reason_code: string;
  detail: Record<string, unknown>;
}

/** A stored row back as the record it was (what `detailOf` left out comes back as null / []). */
export function fromRow(row: DecisionRow): DecisionRecord {
  const d = row.detail;
  const or = <T>(v: unknown, fallback: T): T => (v === undefined ? fallback : (v as T));
  return {
    request_id: row.request_id,
    ...(row.trace_id ? { trace_id: row.trace_id } : {}),
    at: row.at.getTime(),
    door: d.door as DecisionRecord['door'],
    method: or(d.method, ''),
    route: or(d.route, ''),
    gateway_region: row.gateway_region,
    gateway_id: or(d.gateway_id, ''),
    identity: or(d.identity, { kind: 'anonymous' }),
    org_id: row.org_id,
    route_class: or(d.route_class, null),
    policy: or(d.policy, null),
    hint_regions: or(d.hint_regions, []),
    cascade: or<string[]>(d.cascade, []).map(unpackStep),
    region: or(d.region, null),
    source: or(d.source, null),
    candidates: or<StoredCandidate[]>(d.candidates, []).map(unpackCandidate),
    target: or(d.target, null),
    reason_code: row.reason_code as DecisionRecord['reason_code'],
    served_by: or(d.served_by, null),
    degraded: or(d.degraded, null),
    lag_ms: or(d.lag_ms, null),
    signal_age_ms: or(d.signal_age_ms, null),
    status: row.status,
    error_code: or(d.error_code, null),
    latency_ms: or(d.latency_ms, 0),
  };
}

/** The batch as one array per column (the INSERT unnests them into rows). */
export function parameters(records: DecisionRecord[]): unknown[][] {
  const cols: unknown[][] = [[], [], [], [], [], [], [], []];
  for (const r of records) {
    cols[0]!.push(r.request_id);
    cols[1]!.push(new Date(r.at).toISOString());
    cols[2]!.push(r.trace_id ?? null);
    cols[3]!.push(r.org_id);
    cols[4]!.push(r.gateway_region);
    cols[5]!.push(Math.trunc(r.status));
    cols[6]!.push(r.reason_code);
    cols[7]!.push(JSON.stringify(detailOf(r)));
  }
  return cols;
}
