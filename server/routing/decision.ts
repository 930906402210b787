// The decision record: why one request went where it went, and its closed set of reason codes.
// docs/flows/routing-policy.md#decision-records-and-explain
import { GATE_REASONS } from '../db/read-gate';
import type { RouteClass } from './policy-content';

/**
 * Why a request was served where it was, or refused (a closed set, documented in
 * docs/flows/routing-policy.md): the data layer's gate reasons (server/db/read-gate.ts: `replica_ok`,
 * `bookmark_not_replayed`, `replica_lagging`, `replica_signal_stale`, `replica_down`,
 * `no_replica`, `standby_replica`, `weighted_replica`, `primary_down_replica`, `sticky_unknown`,
 * `write_primary`, `primary_down`, `no_candidate`) and the request's own.
 */
export const REASON_CODES = [
  ...GATE_REASONS,
  'fan_out', // a list over every allowed region (each region's read gated on its own)
  'gateway_route', // a service route that answers for the gateway itself, no database
  'no_database', // answered without a database: by the route alone, or from the gateway's memory (cached identity, replayed outcome)
  'hint_outside_candidates', // point 2: the verified request's region is not one its hints left
  'region_not_allowed', // 403: the region is outside the policy's allowed regions
  'wrong_region', // 421: a region API key (or a moved workspace's session) at another region
  'invalid_region', // 400: a malformed or unknown explicit region
  'region_required', // 400: a mutation that names no region
  'unauthenticated', // 401 before routing
  'refused', // any other refusal before a target was chosen (its error code is recorded)
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** One step of the resolution cascade, as tried for this request. */
export interface CascadeStep {
  step: string; // RegionSource: subdomain, header, query, body, key, project-session, session, resource, fan-out
  /** The value that step saw (a region code, or a shortened malformed value). */
  value?: string;
  outcome: 'matched' | 'absent' | 'invalid' | 'skipped';
}

/** One database the read or write gate considered, and why it was not chosen if it was not. */
export interface Candidate {
  target: string; // `primary` | `replica:<region>`
  chosen: boolean;
  dropped?: ReasonCode;
  lag_ms?: number;
  signal_age_ms?: number;
}

export interface DecisionRecord {
  request_id: string;
  trace_id?: string;
  at: number; // ms since the epoch, when the request arrived
  door: 'rest' | 'trpc' | 'action';
  method: string;
  route: string;
  gateway_region: string;
  /** The gateway process (write-positions' id): which of several gateways of a region answered. */
  gateway_id: string;
  identity: { kind: string; user_id?: string; key_id?: string; key_prefix?: string; operator?: boolean };
  org_id: string | null;
  route_class: RouteClass | null;
  /** `epoch.sequence` of the policy applied, and whose it was (`default` for the platform's). */
  policy: { version: string; scope: string } | null;
  /** Execution point 1: the regions the unauthenticated hints left (all known regions if none). */
  hint_regions: string[];
  cascade: CascadeStep[];
  /** The resolved region and the step that matched. */
  region: string | null;
  source: string | null;
  candidates: Candidate[];
  target: string | null; // `primary` | `replica:<region>` | `fan-out` | null (refused)
  reason_code: ReasonCode;
  /** What actually answered the reads (`X-Meridian-Served-By`), and the degradation if any. */
  served_by: string | null;
  degraded: string | null;
  lag_ms: number | null; // the chosen replica's (or the region's) lag at the decision
  signal_age_ms: number | null; // the age of the health signal used
  status: number;
  error_code: string | null;
  latency_ms: number;
  /** Statements the request sent to the primary and to each region's replica, and connections it opened. */
  round_trips: { primary: number; replicas: Record<string, number>; connects: number };
}
