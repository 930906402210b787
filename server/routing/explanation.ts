// An explanation of a routing decision as the API answers it: its shape, one sentence per
// reason code, and the record → view mapping.
import { z } from 'zod';
import { REASON_CODES, type DecisionRecord, type ReasonCode } from './decision';

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
  local_only:
    "Local only: reads never leave the request's region, so neither the primary nor another region's replica was asked; without the region's own replica, refused with a retryable 503.",
  hint_outside_candidates:
    'The region the verified request resolved to is not one its unauthenticated hints left: refused with 400.',
  region_not_allowed: "The region is outside the organization policy's allowed regions: refused with 403.",
  wrong_region: 'A region API key (or a moved workspace) used at another region: refused with 421.',
  invalid_region: 'An explicit region was malformed or unknown: refused with 400.',
  region_required: 'A change that names no region: refused with 400.',
  unauthenticated: 'No valid credentials: refused with 401 before any routing.',
  refused: 'Refused before a target was chosen (see the error code).',
};

const reasonCode = z.enum(REASON_CODES);

export const explanationView = z.object({
  request_id: z.string(),
  at: z.string().describe('When the request arrived'),
  trace_id: z.string().nullable(),
  door: z.enum(['rest', 'trpc', 'action']).describe('How it came in: the REST API, tRPC, or a server action'),
  method: z.string(),
  route: z.string(),
  identity: z
    .object({
      kind: z.string().describe('session, api_key, anonymous, …'),
      user_id: z.string().nullable(),
      key_id: z.string().nullable().describe('An API key by its ID (key_…)'),
      key_prefix: z.string().nullable().describe('An API key by its public prefix (never the secret)'),
      operator: z.boolean(),
    })
    .describe('Who called (never a secret)'),
  org_id: z.string().nullable(),
  gateway: z.object({ region: z.string(), id: z.string().describe('The gateway process that answered') }),
  route_class: z.string().nullable().describe('read, write or list: which of the policy’s limits applied'),
  policy: z
    .object({ version: z.string().describe('epoch.sequence'), scope: z.string().describe('default, or the org') })
    .nullable(),
  hint_regions: z.array(z.string()).describe('Execution point 1: the regions the unauthenticated hints left'),
  cascade: z.array(
    z.object({
      step: z.string(),
      value: z.string().nullable(),
      outcome: z.enum(['matched', 'absent', 'invalid', 'skipped']),
    }),
  ),
  region: z.string().nullable(),
  source: z.string().nullable().describe('The cascade step that matched'),
  candidates: z.array(
    z.object({
      target: z.string().describe('primary | replica:<region>'),
      chosen: z.boolean(),
      dropped: reasonCode.nullable(),
      dropped_reason: z.string().nullable(),
      lag_ms: z.number().nullable(),
      signal_age_ms: z.number().nullable(),
    }),
  ),
  target: z.string().nullable().describe('primary | replica:<region> | fan-out, or null when refused'),
  reason_code: reasonCode,
  reason: z.string().describe('The reason code in a sentence'),
  served_by: z.string().nullable(),
  degraded: z.string().nullable(),
  lag_ms: z.number().nullable().describe('The lag then'),
  signal_age_ms: z.number().nullable().describe('The age of the health signal then'),
  status: z.number(),
  error_code: z.string().nullable(),
  latency_ms: z.number(),
  round_trips: z
    .object({
      primary: z.number().describe('Statements sent to the primary'),
      replicas: z.record(z.string(), z.number()).describe("Statements sent to each region's replica"),
      connects: z.number().describe('Database connections opened on the way (each several round trips)'),
    })
    .describe('What the request cost in round trips to each database (docs/performance.md)'),
  trace: z
    .array(
      z.object({
        request_id: z.string(),
        at: z.string(),
        method: z.string(),
        route: z.string(),
        gateway_region: z.string(),
        status: z.number(),
        reason_code: reasonCode,
        target: z.string().nullable(),
        latency_ms: z.number(),
      }),
    )
    .describe('The other requests of the same trace, oldest first (at most 50)'),
  /** More requests share the trace than are listed. */
  trace_truncated: z.boolean(),
});
export type Explanation = z.infer<typeof explanationView>;

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
    round_trips: r.round_trips,
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
