// Where decision records go: a bounded buffer, then compressed batches to `request_decision_batches`
// off the request path (retention: decision-partitions.ts). docs/flows/routing-policy.md#decision-records-and-explain
import { env } from '../env';
import { backgroundPool, type BackgroundPool } from '../db/background';
import { execute } from '../db/sql';
import { processSingleton, resetProcessSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';
import { metrics } from '../telemetry/metrics';
import type { DecisionRecord } from './decision';
import { batchKey, toBatches } from './decision-batch';
import { batchParameters, insertBatches, NO_PARTITION, WRITE_TIMEOUT_MS } from './decisions.sql';
import {
  makePartitionsFor,
  pruneDecisions,
  pruningSettled,
  RETENTION_INTERVAL_MS,
  RETENTION_MS,
  withTimeout,
} from './decision-partitions';
import { RecordRing } from './record-ring';

/** How often buffered records are written. */
export const FLUSH_MS = 250;
/** Records waiting that trigger a write at once (a busy gateway writes more often, not bigger). */
export const BATCH_ROWS = 500;
/** Rows in one INSERT at most (a backlog after an outage drains in several). */
const MAX_STATEMENT_ROWS = 2_000;
/** Records held at most: ~10 s at 1,000 requests/s; past it the oldest are dropped. */
export const MAX_BUFFERED = 10_000;
/** After a failed write, the next waits this long (an unreachable primary is not hammered). */
const RETRY_MS = 1_000;
/**
 * Refusals kept per second and process (401, 429, and any anonymous 4xx), with a burst: junk
 * traffic is counted (dropped, reason `sampled`) and sampled, so nobody grows the log at the
 * rate they can send requests.
 */
export const REFUSALS_PER_S = 20;
export const REFUSAL_BURST = 200;

interface State {
  /** Records not yet written, oldest first; full, a new one drops the oldest (constant time). */
  buffer: RecordRing<DecisionRecord>;
  /** Records of the write in flight (still findable by explain until they are committed). */
  writing: DecisionRecord[];
  flushing?: Promise<void>;
  timer?: NodeJS.Timeout;
  retentionTimer?: NodeJS.Timeout;
  retryAt: number;
  soonScheduled: boolean;
  /** The refusal sampler's tokens, and when they were last topped up. */
  refusalTokens: number;
  refusalsAt: number;
}

const state = () =>
  processSingleton<State>('decision-log', () => ({
    buffer: new RecordRing<DecisionRecord>(MAX_BUFFERED),
    writing: [],
    retryAt: 0,
    soonScheduled: false,
    refusalTokens: REFUSAL_BURST,
    refusalsAt: Date.now(),
  }));

/** Whether this process keeps decision records (MERIDIAN_DECISION_LOG). */
export function decisionLogEnabled(): boolean {
  return env().MERIDIAN_DECISION_LOG !== 'off';
}

/**
 * Keeps `record` for the explain API. Synchronous, never throws, never waits: the record is
 * buffered and written later in a batch.
 */
export function recordDecision(record: DecisionRecord): void {
  try {
    if (!decisionLogEnabled()) return;
    const s = state();
    if (isRefusal(record) && !takeRefusalToken(s)) {
      metrics.decisionRecordsDropped.inc({ reason: 'sampled' });
      return;
    }
    countDropped(s.buffer.push(record));
    startTimers(s);
    if (s.buffer.length >= BATCH_ROWS && !s.flushing && !s.soonScheduled) {
      s.soonScheduled = true;
      setImmediate(() => {
        s.soonScheduled = false;
        void flushOnce();
      });
    }
  } catch (e) {
    // A record must never fail its request.
    metrics.decisionRecordsDropped.inc({ reason: 'error' });
    logger.warn({ err: (e as Error).message }, 'decision record not kept');
  }
}

/** Traffic anyone can send as fast as they like: unauthenticated or rate-limited refusals. */
function isRefusal(r: DecisionRecord): boolean {
  return r.status === 401 || r.status === 429 || (r.identity.kind === 'anonymous' && r.status >= 400);
}

/** A token bucket: REFUSALS_PER_S a second, REFUSAL_BURST at most. */
function takeRefusalToken(s: State): boolean {
  const now = Date.now();
  s.refusalTokens = Math.min(REFUSAL_BURST, s.refusalTokens + ((now - s.refusalsAt) / 1000) * REFUSALS_PER_S);
  s.refusalsAt = now;
  if (s.refusalTokens < 1) return false;
  s.refusalTokens -= 1;
  return true;
}

/** The oldest buffered records that went to make room for newer ones. */
function countDropped(n: number): void {
  if (n > 0) metrics.decisionRecordsDropped.inc({ reason: 'buffer_full' }, n);
}

function startTimers(s: State): void {
  if (s.timer) return;
  s.timer = setInterval(() => void flushOnce(), FLUSH_MS);
  s.timer.unref();
  // First run soon after start (spread over gateways), then every RETENTION_INTERVAL_MS.
  const first = setTimeout(
    () => {
      void pruneDecisions();
      s.retentionTimer = setInterval(() => void pruneDecisions(), RETENTION_INTERVAL_MS);
      s.retentionTimer.unref();
    },
    5_000 + Math.random() * 10_000,
  );
  first.unref();
  s.retentionTimer = first;
}

/** Whether a failed write's rows can never succeed (bad data, not an unreachable database). */
function rejected(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && /^(22|23|42)/.test(code);
}

/** One INSERT of the records as batches; a missing partition is made and the INSERT tried once more. */
async function writeRecords(pool: BackgroundPool, records: DecisionRecord[]): Promise<void> {
  const batches = await toBatches(records);
  const write = () => withTimeout(execute(pool, insertBatches, ...batchParameters(batches)), WRITE_TIMEOUT_MS + 500);
  try {
    await write();
  } catch (e) {
    if ((e as { code?: unknown }).code !== NO_PARTITION) throw e;
    const times = batches.map((b) => b.firstAt);
    await makePartitionsFor(pool, Math.min(...times), Math.max(...times));
    await write();
  }
}

/** One batched write of what is buffered (at most MAX_STATEMENT_ROWS); one at a time per process. */
function flushOnce(): Promise<void> {
  const s = state();
  if (s.flushing) return s.flushing;
  if (s.buffer.length === 0 || Date.now() < s.retryAt) return Promise.resolve();
  const taken = s.buffer.take(MAX_STATEMENT_ROWS);
  // Past retention there is nothing to keep them for (and no partition to hold them).
  const cutoff = Date.now() - RETENTION_MS;
  const batch = taken.filter((r) => batchKey(r).ms >= cutoff);
  if (batch.length < taken.length)
    metrics.decisionRecordsDropped.inc({ reason: 'expired' }, taken.length - batch.length);
  if (batch.length === 0) return Promise.resolve();
  s.writing = batch;
  s.flushing = (async () => {
    try {
      let pool: BackgroundPool;
      try {
        pool = backgroundPool();
      } catch (e) {
        throw Object.assign(new Error((e as Error).message), { code: 'no_primary' });
      }
      await writeRecords(pool, batch);
      metrics.decisionRecordsWritten.inc(batch.length);
    } catch (e) {
      if (rejected(e)) {
        metrics.decisionRecordsDropped.inc({ reason: 'rejected' }, batch.length);
        logger.warn({ err: (e as Error).message, rows: batch.length }, 'decision records refused by the database');
      } else {
        // The primary is down or slow: keep the rows (the newest win if the buffer overflows).
        s.retryAt = Date.now() + RETRY_MS;
        countDropped(s.buffer.putBack(batch));
        logger.debug({ err: (e as Error).message, rows: batch.length }, 'decision records not written yet');
      }
    } finally {
      s.writing = [];
      s.flushing = undefined;
      metrics.decisionRecordsBuffered.set(s.buffer.length);
    }
  })();
  return s.flushing;
}

/**
 * Writes everything buffered now (tests, and a clean shutdown). Resolves once the buffer is
 * empty, a write fails (the rows stay buffered), or after `timeoutMs`. Never throws.
 */
export async function flushDecisions(timeoutMs = 5_000): Promise<void> {
  const s = state();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), timeoutMs)));
  try {
    s.retryAt = 0;
    for (;;) {
      if (s.flushing && (await Promise.race([s.flushing, deadline])) === 'late') return;
      if (s.buffer.length === 0) return;
      const before = s.buffer.length;
      if ((await Promise.race([flushOnce(), deadline])) === 'late') return;
      if (s.retryAt > Date.now() && s.buffer.length >= before) return; // the write failed: stop trying
    }
  } finally {
    clearTimeout(timer);
  }
}

/** On a clean stop: write what is buffered (bounded), stop the timers, count what is left as dropped. */
export async function closeDecisionLog(timeoutMs = 3_000): Promise<void> {
  const s = state();
  clearInterval(s.timer);
  clearTimeout(s.retentionTimer);
  clearInterval(s.retentionTimer);
  s.timer = undefined;
  s.retentionTimer = undefined;
  await flushDecisions(timeoutMs);
  const left = s.buffer.clear();
  if (left > 0) metrics.decisionRecordsDropped.inc({ reason: 'shutdown' }, left);
}

/** A record of this process not yet written that `match` accepts (explain looks here first). */
export function bufferedDecision(
  requestId: string,
  match: (r: DecisionRecord) => boolean = () => true,
): DecisionRecord | undefined {
  const s = state();
  const buffered = s.buffer.findNewest((r) => r.request_id === requestId && match(r));
  if (buffered) return buffered;
  for (let i = s.writing.length - 1; i >= 0; i--) {
    const r = s.writing[i]!;
    if (r.request_id === requestId && match(r)) return r;
  }
  return undefined;
}

/** Every record of this process not yet written that `match` accepts (a trace's newest requests). */
export function bufferedDecisions(match: (r: DecisionRecord) => boolean): DecisionRecord[] {
  const s = state();
  return [...s.writing.filter(match), ...s.buffer.filter(match)];
}

/** For tests that point the process at another database: stop, and forget what is buffered. */
export async function resetDecisionLog(): Promise<void> {
  const s = state();
  clearInterval(s.timer);
  clearTimeout(s.retentionTimer);
  clearInterval(s.retentionTimer);
  await s.flushing?.catch(() => {});
  await pruningSettled();
  resetProcessSingleton('decision-log');
  metrics.decisionRecordsBuffered.set(0);
}

/** Test aid: what is waiting in this process. */
export function decisionLogStats(): { buffered: number; flushing: boolean } {
  const s = state();
  return { buffered: s.buffer.length, flushing: !!s.flushing };
}
