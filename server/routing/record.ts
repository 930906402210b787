// Builds a request's decision record (decision.ts) from what the middleware and the data layer's
// gates noted while it ran. Pure: the middleware passes everything in.
import type { GateDecision } from '../db/read-gate';
import type { RoundTrips } from '../db/round-trips';
import type { CascadeTraceStep } from '../region/cascade';
import type { Candidate, DecisionRecord, ReasonCode } from './decision';
import type { RouteClass } from './policy-content';

export interface RecordInput {
  requestId: string;
  traceId?: string;
  at: number;
  door: DecisionRecord['door'];
  method: string;
  route: string;
  gatewayRegion: string;
  gatewayId: string;
  identity: DecisionRecord['identity'];
  orgId: string | null;
  routeClass: RouteClass | null;
  policy: DecisionRecord['policy'];
  hintRegions: string[];
  cascade: CascadeTraceStep[];
  region: { region: string; source: string; fanOut?: string[] } | undefined;
  /** A service route answering for the gateway (no cascade). */
  gatewayRoute: boolean;
  decisions: GateDecision[];
  servedBy: string | undefined;
  degraded: string | undefined;
  status: number;
  errorCode: string | undefined;
  /** The refusal came from point 2's recheck of the hints. */
  hintRefused?: boolean;
  latencyMs: number;
  roundTrips: RoundTrips;
}

const REFUSALS: Partial<Record<string, ReasonCode>> = {
  unauthenticated: 'unauthenticated',
  invalid_region: 'invalid_region',
  region_required: 'region_required',
  region_not_allowed: 'region_not_allowed',
  wrong_region: 'wrong_region',
};

/** W3C traceparent's trace id (`00-<32 hex>-<16 hex>-<2 hex>`), when the client sent a valid one. */
export function traceIdOf(traceparent: string | null): string | undefined {
  const m = traceparent?.trim().match(/^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/);
  return m && !/^0+$/.test(m[1]!) ? m[1] : undefined;
}

const toCandidate = (c: GateDecision['candidates'][number]): Candidate => ({ ...c });

export function buildDecisionRecord(i: RecordInput): DecisionRecord {
  const write = i.decisions.find((d) => d.kind === 'write');
  const reads = i.decisions.filter((d) => d.kind === 'read');
  const fanOut = i.region?.source === 'fan-out';
  let target: string | null;
  let reason: ReasonCode;
  let candidates: Candidate[] = [];
  let main: GateDecision | undefined;
  if (i.hintRefused) {
    [target, reason] = [null, 'hint_outside_candidates'];
  } else if (!i.region && i.errorCode) {
    // Refused before a region was chosen.
    [target, reason] = [null, REFUSALS[i.errorCode] ?? 'refused'];
  } else if (fanOut && !write) {
    // One read per region: each is a candidate (chosen, or dropped with its reason).
    target = 'fan-out';
    reason = 'fan_out';
    candidates = reads.flatMap((d) => d.candidates.map(toCandidate));
  } else if ((main = write ?? reads.find((d) => d.target === null) ?? reads[0])) {
    target = main.target;
    reason = main.reason;
    candidates = main.candidates.map(toCandidate);
  } else if (i.errorCode && REFUSALS[i.errorCode]) {
    [target, reason] = [null, REFUSALS[i.errorCode]!];
  } else {
    [target, reason] = [null, i.gatewayRoute ? 'gateway_route' : 'no_database'];
  }
  const lagFrom = main ? (main.lagMs ?? main.candidates.find((c) => c.lag_ms !== undefined)?.lag_ms) : undefined;
  const ageFrom = main
    ? (main.signalAgeMs ?? main.candidates.find((c) => c.signal_age_ms !== undefined)?.signal_age_ms)
    : undefined;
  return {
    request_id: i.requestId,
    ...(i.traceId ? { trace_id: i.traceId } : {}),
    at: i.at,
    door: i.door,
    method: i.method,
    route: i.route,
    gateway_region: i.gatewayRegion,
    gateway_id: i.gatewayId,
    identity: i.identity,
    org_id: i.orgId,
    route_class: i.routeClass,
    policy: i.policy,
    hint_regions: i.hintRegions,
    cascade: i.cascade,
    region: i.region?.region ?? null,
    source: i.region?.source ?? null,
    candidates,
    target,
    reason_code: reason,
    served_by: i.servedBy ?? null,
    degraded: i.degraded ?? null,
    lag_ms: lagFrom ?? null,
    signal_age_ms: ageFrom ?? null,
    status: i.status,
    error_code: i.errorCode ?? null,
    latency_ms: Math.round(i.latencyMs * 100) / 100,
    round_trips: {
      primary: i.roundTrips.primary,
      replicas: { ...i.roundTrips.replicas },
      connects: i.roundTrips.connects,
    },
  };
}
