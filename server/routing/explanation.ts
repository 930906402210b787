// An explanation of a routing decision as the API answers it: its shape, one sentence per
// reason code, and the record → view mapping.
import type { DecisionRecord, ReasonCode } from './decision';

/** One sentence per reason code, for people reading an explanation (docs/flows/routing-policy.md lists the same set). */
export const REASON_TEXT: Record<ReasonCode, string> = {
  replica_ok:
    "The region's replica passed the read gate: its lag and the age of its health signal were within the route's limits.",
  bookmark_not_replayed:
    "The replica had not replayed the caller's own latest write in time, so the primary answered the read.",
  replica_lagging: "The replica's lag was over the route's limit, so the read went to the primary (or the standby).",
  replica_signal_stale:
    'The health signal about the replica was older than the route allows, so the replica was not trusted with the read.',
  replica_down: 'The replica was unreachable, so the read went elsewhere.',
  no_replica: 'The region has no replica (or the request resolved no region), so the primary answered.',
  standby_replica: "Active-standby: the standby region's replica served the read.",
  weighted_replica: 'Weighted reads: this stateless read went to a weighted replica.',
  primary_down_replica: "The primary was down; the region's replica answered instead (degraded).",
  sticky_unknown:
    "This gateway could not hear other gateways' writes at the time, so the read used the primary to be safe.",
  fan_out: "A list over every allowed region: each region's read passed its own gate.",
  write_primary: 'A write: writes go to the primary, and only there.',
  gateway_route: 'A service route that answers for the gateway itself: no database routing was involved.',
  no_database:
    "Answered without a database: by the route alone, or from the gateway's memory (a cached identity, a replayed outcome).",
  primary_down: 'The primary was down and only it could serve this request: refused with 503.',
  no_candidate: "No database passed the policy's gates: refused with 503 (fail closed).",
  hint_outside_candidates:
    'The region the verified request resolved to is not one its unauthenticated hints left: refused with 400.',
  region_not_allowed: "The region is outside the organization policy's allowed regions: refused with 403.",
  wrong_region: 'A region API key (or a moved workspace) used at another region: refused with 421.',
  invalid_region: 'An explicit region was malformed or unknown: refused with 400.',
  region_required: 'A change that names no region: refused with 400.',
  unauthenticated: 'No valid credentials: refused with 401 before any routing.',
  refused: 'Refused before a target was chosen (see the error code).',
};

export interface TraceSibling {
  request_id: string;
  at: string;
  method: string;
  route: string;
  gateway_region: string;
  status: number;
  reason_code: ReasonCode;
  target: string | null;
  latency_ms: number;
}

export interface Explanation {
  request_id: string;
  at: string;
  trace_id: string | null;
  door: DecisionRecord['door'];
  method: string;
  route: string;
  identity: {
    kind: string;
    user_id: string | null;
    key_id: string | null;
    key_prefix: string | null;
    operator: boolean;
  };
  org_id: string | null;
  gateway: { region: string; id: string };
  route_class: string | null;
  policy: { version: string; scope: string } | null;
  hint_regions: string[];
  cascade: { step: string; value: string | null; outcome: 'matched' | 'absent' | 'invalid' | 'skipped' }[];
  region: string | null;
  source: string | null;
  candidates: {
    target: string;
    chosen: boolean;
    dropped: ReasonCode | null;
    dropped_reason: string | null;
    lag_ms: number | null;
    signal_age_ms: number | null;
  }[];
  target: string | null;
  reason_code: ReasonCode;
  reason: string;
  served_by: string | null;
  degraded: string | null;
  lag_ms: number | null;
  signal_age_ms: number | null;
  status: number;
  error_code: string | null;
  latency_ms: number;
  trace: TraceSibling[];
  /** More requests share the trace than are listed. */
  trace_truncated: boolean;
}

/** The view of `r`, with the other requests of its trace (`truncated`: more share it than listed). */
export function toExplanation(r: DecisionRecord, trace: DecisionRecord[], truncated: boolean): Explanation {
  return {
    request_id: r.request_id,
    at: new Date(r.at).toISOString(),
    trace_id: r.trace_id ?? null,
    door: r.door,
    method: r.method,
    route: r.route,
    identity: {
      kind: r.identity.kind,
      user_id: r.identity.user_id ?? null,
      key_id: r.identity.key_id ?? null,
      key_prefix: r.identity.key_prefix ?? null,
      operator: r.identity.operator === true,
    },
    org_id: r.org_id,
    gateway: { region: r.gateway_region, id: r.gateway_id },
    route_class: r.route_class,
    policy: r.policy,
    hint_regions: r.hint_regions,
    cascade: r.cascade.map((c) => ({ step: c.step, value: c.value ?? null, outcome: c.outcome })),
    region: r.region,
    source: r.source,
    candidates: r.candidates.map((c) => ({
      target: c.target,
      chosen: c.chosen,
      dropped: c.dropped ?? null,
      dropped_reason: c.dropped ? (REASON_TEXT[c.dropped] ?? null) : null,
      lag_ms: c.lag_ms ?? null,
      signal_age_ms: c.signal_age_ms ?? null,
    })),
    target: r.target,
    reason_code: r.reason_code,
    reason: REASON_TEXT[r.reason_code] ?? r.reason_code,
    served_by: r.served_by,
    degraded: r.degraded,
    lag_ms: r.lag_ms,
    signal_age_ms: r.signal_age_ms,
    status: r.status,
    error_code: r.error_code,
    latency_ms: r.latency_ms,
    trace: trace.map((t) => ({
      request_id: t.request_id,
      at: new Date(t.at).toISOString(),
      method: t.method,
      route: t.route,
      gateway_region: t.gateway_region,
      status: t.status,
      reason_code: t.reason_code,
      target: t.target,
      latency_ms: t.latency_ms,
    })),
    trace_truncated: truncated,
  };
}
