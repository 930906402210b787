// Retention of decision records by whole hourly partitions (docs/flows/routing-policy.md#decision-records-and-explain):
// made ahead of the clock, dropped when wholly past RETENTION_MS; no row-by-row DELETE.
import { backgroundPool, type BackgroundPool } from '../db/background';
import { runOne } from '../db/sql';
import { processSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';
import { BATCH_SPAN_MS } from './decision-batch';
import { maintainPartitions, WRITE_TIMEOUT_MS } from './decisions.sql';

/** How long records are kept (the explain API's promise: any request of the last 24 hours). */
export const RETENTION_MS = 24 * 60 * 60_000;
/** How often partitions are made ahead and the old ones dropped. */
export const RETENTION_INTERVAL_MS = 60_000;
/** Hourly partitions made ahead of the clock (a gateway's clock a little ahead still finds one). */
const HOURS_AHEAD = 2;
/** The advisory lock meridian_decision_partitions() takes: "MDEC". */
export const RETENTION_LOCK_KEY = 0x4d444543;

const state = () => processSingleton<{ pruning?: Promise<number> }>('decision-partitions', () => ({}));

const hourIso = (ms: number) => new Date(ms).toISOString();

/** The hourly partitions for records of [fromMs, toMs], now (a new database, a clock past the last one made). */
export async function makePartitionsFor(pool: BackgroundPool, fromMs: number, toMs: number): Promise<void> {
  const made = await runOne(
    pool,
    maintainPartitions,
    hourIso(fromMs),
    hourIso(toMs),
    hourIso(retentionCutoff(Date.now())),
  );
  // Another process is making them right now: give it a moment.
  if (made === null) await new Promise((r) => setTimeout(r, 200));
}

/** Partitions wholly before this are dropped: a batch spans up to BATCH_SPAN_MS past its partition's start. */
function retentionCutoff(now: number): number {
  return now - RETENTION_MS - BATCH_SPAN_MS;
}

/** `p`, or a rejection once `ms` have passed (a database that stopped answering). */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`decision records: write took over ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Retention and upkeep: makes the hourly partitions from an hour ago to HOURS_AHEAD ahead and
 * drops those wholly older than RETENTION_MS (before `now`), unless another process is at it
 * (RETENTION_LOCK_KEY). Whole partitions: no row-by-row DELETE, nothing left to vacuum. Returns
 * the partitions dropped. Never throws (an unreachable primary: the next run catches up).
 */
export function pruneDecisions(now = Date.now()): Promise<number> {
  const s = state();
  return (s.pruning ??= (async () => {
    try {
      const hour = 3_600_000;
      const dropped = await withTimeout(
        runOne(
          backgroundPool(),
          maintainPartitions,
          hourIso(now - hour),
          hourIso(now + HOURS_AHEAD * hour),
          hourIso(retentionCutoff(now)),
        ),
        WRITE_TIMEOUT_MS * 2,
      );
      if (dropped) logger.info({ dropped }, 'decision record partitions past retention dropped');
      return dropped ?? 0;
    } catch (e) {
      logger.warn({ err: (e as Error).message }, 'decision record retention failed; retrying later');
      return 0;
    } finally {
      s.pruning = undefined;
    }
  })());
}

/** Resolves once a retention run in progress (if any) has ended (tests that reset the log). */
export async function pruningSettled(): Promise<void> {
  await state().pruning?.catch(() => {});
}
