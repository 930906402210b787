// The decision record: why one request went where it went. One per request, built by the
// request middleware (server/api/middleware/request.ts) and the data layer's read and write gates
// (server/db/access.ts), stored off the request path (server/routing/decision-log.ts) and read
// back by the explain API (server/routing/explain.ts). Internal: external errors keep the
// contract's shape, and nothing here holds a secret (an API key appears by its public prefix).
import type { RouteClass } from './policy';

/**
 * Why a request was served where it was, or refused (a closed set, documented in the README's
 * "Routing policy" section). Reads: `replica_ok` … `sticky_unknown`; writes: `write_primary`;
 * refusals: the rest.
 */
export const REASON_CODES = [
  // reads
  'replica_ok', // the region's replica passed the read gate (lag and signal age within the route's limits)
  'bookmark_not_replayed', // the replica had not replayed the caller's own write in time: the primary
  'replica_lagging', // the replica's lag was over the route's limit: the primary (fixed) or the standby
  'replica_signal_stale', // the health signal about the replica was older than the route allows
  'replica_down', // the replica was unreachable
  'no_replica', // the region has no replica (or the request has no region): the primary
  'standby_replica', // active_standby: the standby region's replica served the read
  'weighted_replica', // weighted_reads: a stateless read went to a weighted replica
  'primary_down_replica', // the primary was down: the region's replica answered (degraded)
  'sticky_unknown', // this gateway could not hear other gateways' writes: the primary
  'fan_out', // a list over every allowed region (each region's read gated on its own)
  // writes
  'write_primary', // writes go to the primary, and only there
  // no data routing
  'gateway_route', // a service route that answers for the gateway itself
  // refused
  'primary_down', // a write (or a read only the primary could serve) while the primary is down: 503
  'no_candidate', // no database passed the gate: 503
  'hint_outside_candidates', // execution point 2: the hint named a region the identity/policy rules out
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
  identity: { kind: string; user_id?: string; key_prefix?: string; operator?: boolean };
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
}
