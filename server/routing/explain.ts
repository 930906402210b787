// "Why did this request go there?": a request's decision record (server/routing/decision.ts)
// looked up by its ID, with the other requests of its trace, shaped for
// GET /v1/atlas/requests/{request_id} (operators: any request) and GET /v1/requests/{request_id}
// (customers: their organization's only; anyone else's is a 404 exactly like an unknown ID).
// Records live on the primary only (request_decisions is UNLOGGED: no replica has them), so
// explain reads the primary and this process's buffer; an ID younger than a few seconds is
// looked for again for about a second (another gateway's batch may not have landed yet).
import { AppError } from '../errors';
import { isConnectionError, primaryUnavailable } from '../db/connection-errors';
import { backgroundPool } from '../db/background';
import { run, runOne } from '../db/sql';
import type { DataRequest } from '../db/request-state';
import { parseRequestId } from '../ids';
import type { DecisionRecord, ReasonCode } from './decision';
import { consumeOrRefuse, type LimitPolicy } from '../rate-limits/limiters';
import { bufferedDecision, bufferedDecisions, RETENTION_MS } from './decision-log';
import { fromRow } from './decision-row';
import { primaryStartTime, traceDecisions, visibleDecision } from './decisions.sql';

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

/** How many of a trace's other requests an explanation lists. */
export const TRACE_LIMIT = 50;
/** An ID younger than this may belong to a record still in some gateway's buffer: look again. */
const RECENT_MS = 5_000;
const LOOK_AGAIN_MS = [250, 250, 250, 300];

const NOT_FOUND =
  'no decision record for this request ID: records are kept 24 hours and appear about a second after the response';

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

export interface Viewer {
  /** A platform operator sees every request; anyone else only `orgId`'s. */
  operator: boolean;
  orgId: string | null;
}

/** Whether `value` has the shape of a request ID (`req_{region}-{ms}-{12 hex}`). */
export function isRequestId(value: string): boolean {
  return parseRequestId(value) !== undefined;
}

/**
 * Explanations one principal may ask for per minute. An unknown recent ID costs up to five
 * primary look-ups over about a second; this bounds what one caller can make the primary do.
 */
export const EXPLAIN_LIMIT: LimitPolicy = { name: 'explain_principal', points: 60, duration: 60 };
/** How far ahead of this gateway's clock another gateway's clock may be (request IDs carry its time). */
export const FUTURE_SKEW_MS = 2_000;

/** Whether `viewer` may see `record`: the same test in memory and (as SQL, decisions.sql.ts) on the primary. */
function visible(record: DecisionRecord, viewer: Viewer): boolean {
  return viewer.operator || (viewer.orgId !== null && record.org_id === viewer.orgId);
}

/** The record of `requestId` if it exists and `viewer` may see it: one answer for missing and invisible. */
async function stored(requestId: string, viewer: Viewer): Promise<DecisionRecord | undefined> {
  // The primary's, on purpose: no replica has the records (UNLOGGED).
  const row = await runOne(backgroundPool(), visibleDecision, requestId, viewer.operator, viewer.orgId);
  return row ? fromRow(row) : undefined;
}

/**
 * Whether `other` belongs to the same tenant as `record`: a trace ID is the client's choice (a
 * traceparent header), so it groups requests only within one organization (or, for a request
 * with none, one signed-in user); anyone may send anyone's trace ID, and an operator reading a
 * trace must not be shown another tenant's requests as part of it.
 */
function sameTenant(other: DecisionRecord, record: DecisionRecord): boolean {
  if (record.org_id !== null) return other.org_id === record.org_id;
  const user = record.identity.user_id;
  return user !== undefined && other.org_id === null && other.identity.user_id === user;
}
const byTime = (a: DecisionRecord, b: DecisionRecord) =>
  a.at - b.at || (a.request_id < b.request_id ? -1 : a.request_id > b.request_id ? 1 : 0);

/**
 * The other requests of `record`'s trace and tenant, oldest first: the primary's, and this
 * process's not yet written (merged here rather than flushing the log for every question).
 */
async function siblings(record: DecisionRecord): Promise<{ rows: DecisionRecord[]; truncated: boolean }> {
  const traceId = record.trace_id;
  if (!traceId) return { rows: [], truncated: false };
  const rows = await run(
    backgroundPool(),
    traceDecisions,
    traceId,
    record.request_id,
    record.org_id,
    record.identity.user_id ?? null,
    TRACE_LIMIT + 1,
  );
  const all = new Map(rows.map((r) => [r.request_id, fromRow(r)]));
  for (const r of bufferedDecisions(
    (r) => r.trace_id === traceId && r.request_id !== record.request_id && sameTenant(r, record),
  )) {
    if (!all.has(r.request_id)) all.set(r.request_id, r);
  }
  const sorted = [...all.values()].sort(byTime);
  return { rows: sorted.slice(0, TRACE_LIMIT), truncated: sorted.length > TRACE_LIMIT };
}

/**
 * The record, if `viewer` may see it. Another organization's record takes exactly the path of
 * a missing one (the same look-ups, the same waits): how long a 404 takes says nothing about
 * whether, or whose, a record exists.
 */
async function find(requestId: string, issuedAt: number, viewer: Viewer): Promise<DecisionRecord | undefined> {
  const mine = (r: DecisionRecord) => visible(r, viewer);
  const found = bufferedDecision(requestId, mine) ?? (await stored(requestId, viewer));
  if (found || Date.now() - issuedAt > RECENT_MS) return found;
  for (const wait of LOOK_AGAIN_MS) {
    await new Promise((r) => setTimeout(r, wait));
    const again = bufferedDecision(requestId, mine) ?? (await stored(requestId, viewer));
    if (again) return again;
  }
  return undefined;
}

const START_TIME_TTL_MS = 10_000;
let startTime: { at: number; started: Promise<Date | undefined> } | undefined;

function primaryStarted(): Promise<Date | undefined> {
  if (!startTime || Date.now() - startTime.at > START_TIME_TTL_MS) {
    const started = runOne(backgroundPool(), primaryStartTime);
    startTime = { at: Date.now(), started };
    started.catch(() => (startTime = undefined)); // a failed look-up is not remembered
  }
  return startTime.started;
}

/**
 * The 404's message. The records are unlogged (see decision-log.ts): a crash of the primary
 * empties the table, so a request from before the primary's last start may have had a record
 * that is gone. Said, never silent; the words depend only on the ID's time, never on whether
 * (or whose) a record exists. The start time is remembered a few seconds (one look-up, not one
 * per 404).
 */
async function notFoundMessage(ms: number): Promise<string> {
  const started = await primaryStarted();
  if (started && ms < started.getTime()) {
    return `${NOT_FOUND}; the primary restarted at ${started.toISOString()}, and a crash loses the records from before it (they are not written to the WAL)`;
  }
  return NOT_FOUND;
}

const invalid = (message: string) =>
  new AppError('invalid_request', message, { extra: { details: [{ path: ['request_id'], message }] } });

/**
 * The explanation of `requestId` as `viewer` may see it, for `principal` (who the per-principal
 * limit counts). 400 `invalid_request` for something that is not a request ID, or one from the
 * future (no gateway has made it yet: nothing to wait for); 429 `rate_limited` past
 * EXPLAIN_LIMIT; 404 `not_found` for an unknown, expired, or another organization's request.
 */
export async function explainRequest(
  req: DataRequest,
  requestId: string,
  viewer: Viewer,
  principal: string | undefined,
): Promise<Explanation> {
  const parsed = parseRequestId(requestId);
  if (!parsed) throw invalid('expected req_{region}-{unix ms}-{12 hex}');
  if (parsed.ms > Date.now() + FUTURE_SKEW_MS) {
    throw invalid('this request ID’s time is in the future: request IDs carry the time their request arrived');
  }
  await consumeOrRefuse(
    EXPLAIN_LIMIT,
    principal ?? 'anonymous',
    `at most ${EXPLAIN_LIMIT.points} explanations a minute per caller: try again later`,
  );
  // Older than retention: gone (or about to be); no need to look.
  if (Date.now() - parsed.ms > RETENTION_MS) throw new AppError('not_found', NOT_FOUND);
  req.consistency.servedBy = 'primary';
  try {
    const record = await find(requestId, parsed.ms, viewer);
    if (!record) throw new AppError('not_found', await notFoundMessage(parsed.ms));
    const trace = await siblings(record);
    return shape(record, trace.rows, trace.truncated);
  } catch (e) {
    if (isConnectionError(e)) throw primaryUnavailable(e);
    throw e;
  }
}

function shape(r: DecisionRecord, trace: DecisionRecord[], truncated: boolean): Explanation {
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
