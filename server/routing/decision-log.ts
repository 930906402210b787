// Where decision records go: a bounded buffer, batched to `request_decisions` off the request path,
// and their retention. docs/flows/routing-policy.md#decision-records-and-explain
import { env } from '../env';
import { backgroundPool, type BackgroundPool, type BackgroundPoolClient } from '../db/background';
import { advisoryUnlock, tryAdvisoryLock } from '../db/locks.sql';
import { execute, runOne } from '../db/sql';
import { processSingleton, resetProcessSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';
import { metrics } from '../telemetry/metrics';
import type { DecisionRecord } from './decision';
import { parameters } from './decision-row';
import { deleteOldDecisions, insertDecisions, WRITE_TIMEOUT_MS } from './decisions.sql';
import { RecordRing } from './record-ring';

/** How long records are kept (the explain API's promise: any request of the last 24 hours). */
export const RETENTION_MS = 24 * 60 * 60_000;
/** How often buffered records are written. */
export const FLUSH_MS = 250;
/** Records waiting that trigger a write at once (a busy gateway writes more often, not bigger). */
export const BATCH_ROWS = 500;
/** Rows in one INSERT at most (a backlog after an outage drains in several). */
const MAX_STATEMENT_ROWS = 2_000;
/** Records held at most: ~10 s at 1,000 requests/s; past it the oldest are dropped. */
export const MAX_BUFFERED = 10_000;
/** A write that takes longer is given up (its rows kept for the next one; ON CONFLICT makes a late duplicate harmless). */
/** After a failed write, the next waits this long (an unreachable primary is not hammered). */
const RETRY_MS = 1_000;
export const RETENTION_INTERVAL_MS = 60_000;
const DELETE_BATCH = 5_000;
/** Batches one retention run deletes at most (the rest waits for the next run). */
const DELETE_BATCHES_PER_RUN = 20;
/** pg_try_advisory_lock key for retention: "MDEC". */
export const RETENTION_LOCK_KEY = 0x4d444543;

interface State {
  /** Records not yet written, oldest first; full, a new one drops the oldest (constant time). */
  buffer: RecordRing<DecisionRecord>;
  /** Records of the write in flight (still findable by explain until they are committed). */
  writing: DecisionRecord[];
  flushing?: Promise<void>;
  timer?: NodeJS.Timeout;
  retentionTimer?: NodeJS.Timeout;
  pruning?: Promise<number>;
  retryAt: number;
  soonScheduled: boolean;
}

const state = () =>
  processSingleton<State>('decision-log', () => ({
    buffer: new RecordRing<DecisionRecord>(MAX_BUFFERED),
    writing: [],
    retryAt: 0,
    soonScheduled: false,
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

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`decision records: write took over ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** One batched write of what is buffered (at most MAX_STATEMENT_ROWS); one at a time per process. */
function flushOnce(): Promise<void> {
  const s = state();
  if (s.flushing) return s.flushing;
  if (s.buffer.length === 0 || Date.now() < s.retryAt) return Promise.resolve();
  const batch = s.buffer.take(MAX_STATEMENT_ROWS);
  s.writing = batch;
  s.flushing = (async () => {
    try {
      let pool: BackgroundPool;
      try {
        pool = backgroundPool();
      } catch (e) {
        throw Object.assign(new Error((e as Error).message), { code: 'no_primary' });
      }
      await withTimeout(execute(pool, insertDecisions, ...parameters(batch)), WRITE_TIMEOUT_MS + 500);
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
  await s.pruning?.catch(() => {});
  resetProcessSingleton('decision-log');
  metrics.decisionRecordsBuffered.set(0);
}

/** Test aid: what is waiting in this process. */
export function decisionLogStats(): { buffered: number; flushing: boolean } {
  const s = state();
  return { buffered: s.buffer.length, flushing: !!s.flushing };
}

/**
 * Deletes records older than RETENTION_MS (before `now`), DELETE_BATCH at a time, if this
 * process takes the retention lock (another one deleting now: nothing to do). Returns the rows
 * deleted. Never throws (an unreachable primary: the next run catches up).
 */
export function pruneDecisions(now = Date.now()): Promise<number> {
  const s = state();
  return (s.pruning ??= (async () => {
    let client: BackgroundPoolClient | undefined;
    let deleted = 0;
    try {
      client = await withTimeout(backgroundPool().connect(), WRITE_TIMEOUT_MS);
      if (!(await runOne(client, tryAdvisoryLock, RETENTION_LOCK_KEY))) return 0;
      try {
        const cutoff = new Date(now - RETENTION_MS).toISOString();
        for (let i = 0; i < DELETE_BATCHES_PER_RUN; i++) {
          // By ctid: a batch is found through the `at` index and deleted without a second look-up.
          const n = await execute(client, deleteOldDecisions, cutoff, DELETE_BATCH);
          deleted += n;
          if (n < DELETE_BATCH) break;
        }
      } finally {
        await runOne(client, advisoryUnlock, RETENTION_LOCK_KEY);
      }
      if (deleted > 0) logger.info({ deleted }, 'decision records past retention deleted');
      return deleted;
    } catch (e) {
      logger.warn({ err: (e as Error).message, deleted }, 'decision record retention failed; retrying later');
      // A connection that failed mid-way may still hold the lock: destroy it (the lock goes with it).
      client?.release(e as Error);
      client = undefined;
      return deleted;
    } finally {
      client?.release();
      s.pruning = undefined;
    }
  })());
}
