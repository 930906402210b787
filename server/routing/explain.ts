// "Why did this request go there?": a request's decision record and its trace, found for a
// viewer who may see it (docs/flows/routing-policy.md#decision-records-and-explain).
import { AppError } from '../errors';
import { isConnectionError, primaryUnavailable } from '../db/connection-errors';
import { backgroundPool } from '../db/background';
import { run, runOne } from '../db/sql';
import type { DataRequest } from '../db/request-state';
import { parseRequestId, type ParsedRequestId } from '../ids';
import type { DecisionRecord } from './decision';
import { consumeOrRefuse, type LimitPolicy } from '../rate-limits/limiters';
import { BATCH_SPAN_MS, decodeBatch, decodeRequest } from './decision-batch';
import { bufferedDecision, bufferedDecisions, REFUSALS_PER_S } from './decision-log';
import { RETENTION_MS } from './decision-partitions';
import { batchesAt, batchesOfTrace, primaryStartTime, type StoredBatch } from './decisions.sql';
import { toExplanation, type Explanation } from './explanation';

/** How many of a trace's other requests an explanation lists. */
export const TRACE_LIMIT = 50;
/** A trace's batches decoded at most (each up to a flush of one gateway's records). */
export const TRACE_BATCHES = 100;
/** An ID younger than this may belong to a record still in some gateway's buffer: look again. */
const RECENT_MS = 5_000;
const LOOK_AGAIN_MS = [250, 250, 250, 300];

const NOT_FOUND =
  'no decision record for this request ID: records are kept 24 hours and appear about a second after the response' +
  `; refusals anyone can send (401, 429, unauthenticated) are sampled, ${REFUSALS_PER_S} a second per gateway`;

export interface Viewer {
  /** A platform operator sees every request; anyone else only `orgId`'s. */
  operator: boolean;
  orgId: string | null;
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

/** Every record of `batches` (a batch written twice by a retried flush: its records once). */
function decoded(batches: StoredBatch[]): DecisionRecord[] {
  const seen = new Set<string>();
  return batches
    .flatMap((b) => decodeBatch(b.payload, b.firstAt))
    .filter((r) => !seen.has(r.request_id) && seen.add(r.request_id));
}

/** The record of `requestId` if it exists and `viewer` may see it: one answer for missing and invisible. */
async function stored(
  requestId: string,
  region: string,
  ms: number,
  viewer: Viewer,
): Promise<DecisionRecord | undefined> {
  // The primary's, on purpose: no replica has the records (UNLOGGED).
  const at = new Date(ms).toISOString();
  const batches = await run(backgroundPool(), batchesAt, region, at, BATCH_SPAN_MS, viewer.operator, viewer.orgId);
  for (const b of batches) {
    const found = decodeRequest(b.payload, b.firstAt, requestId).find((r) => visible(r, viewer));
    if (found) return found;
  }
  return undefined;
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
  const since = new Date(Date.now() - RETENTION_MS - BATCH_SPAN_MS).toISOString();
  const batches = await run(backgroundPool(), batchesOfTrace, traceId, since, record.org_id, TRACE_BATCHES);
  const mine = (r: DecisionRecord) =>
    r.trace_id === traceId && r.request_id !== record.request_id && sameTenant(r, record);
  const all = new Map(
    decoded(batches)
      .filter(mine)
      .map((r) => [r.request_id, r]),
  );
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
async function find(requestId: string, id: ParsedRequestId, viewer: Viewer): Promise<DecisionRecord | undefined> {
  const mine = (r: DecisionRecord) => visible(r, viewer);
  const look = async () => bufferedDecision(requestId, mine) ?? (await stored(requestId, id.region, id.ms, viewer));
  const found = await look();
  if (found || Date.now() - id.ms > RECENT_MS) return found;
  for (const wait of LOOK_AGAIN_MS) {
    await new Promise((r) => setTimeout(r, wait));
    const again = await look();
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
    const record = await find(requestId, parsed, viewer);
    if (!record) throw new AppError('not_found', await notFoundMessage(parsed.ms));
    const trace = await siblings(record);
    return toExplanation(record, trace.rows, trace.truncated);
  } catch (e) {
    if (isConnectionError(e)) throw primaryUnavailable(e);
    throw e;
  }
}
