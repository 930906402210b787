// The lag-history sampler: one process per deployment (the advisory lock's holder) samples every
// region each interval, reconciles alerts and compacts (docs/atlas.md#lag-history).
import { backgroundSession, type BackgroundSession } from '../db/background';
import { tryAdvisoryLock } from '../db/locks.sql';
import { runOne } from '../db/sql';
import { env } from '../env';
import { processSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';
import { reconcileAlerts } from './alert-reconcile';
import { measure, store } from './lag-measure';
import { compact } from './lag-retention';
import { recordPromotions } from '../database-cluster/promotions';

/** pg_try_advisory_lock key: "MLAG" (any constant the app uses nowhere else). */
export const SAMPLER_LOCK_KEY = 0x4d4c4147;

interface State {
  client?: BackgroundSession;
  connecting?: Promise<BackgroundSession | undefined>;
  timer?: NodeJS.Timeout;
  ticking?: Promise<void>;
  lastCompaction?: number;
  warnedStats?: boolean;
}

const state = () => processSingleton<State>('lag-sampler', () => ({}));

/** The lock-holding connection, or undefined when another process holds the lock. */
async function lockHolder(): Promise<BackgroundSession | undefined> {
  const s = state();
  if (s.client) return s.client;
  return (s.connecting ??= (async () => {
    const c = backgroundSession({
      applicationName: 'meridian-lag-sampler',
      connectTimeoutMs: 2_000,
      statementTimeoutMs: 3_000,
      queryTimeoutMs: 4_000,
    });
    c.on('error', () => {
      if (state().client === c) state().client = undefined; // the lock went with the connection
    });
    try {
      await c.connect();
      if (!(await runOne(c, tryAdvisoryLock, SAMPLER_LOCK_KEY))) {
        await c.end().catch(() => {});
        return undefined;
      }
      logger.info('lag sampler: this process samples (advisory lock held)');
      s.client = c;
      return c;
    } catch {
      await c.end().catch(() => {});
      return undefined;
    } finally {
      s.connecting = undefined;
    }
  })());
}

function warnHiddenStats(): void {
  if (state().warnedStats) return;
  state().warnedStats = true;
  logger.warn(
    'lag sampler: pg_stat_replication shows no details; grant pg_read_all_stats to the role that owns meridian_replication_status()',
  );
}

/**
 * One tick: take (or keep) the lock, sample, store, and compact once a minute. Resolves to whether
 * this process sampled. Exported so tests drive it without timers.
 */
export function sampleTick(now = Date.now()): Promise<boolean> {
  const s = state();
  let sampled = false;
  const run = (s.ticking ??= (async () => {
    try {
      const client = await lockHolder();
      if (!client) return;
      const rows = await measure(client, now, warnHiddenStats);
      await store(client, rows);
      sampled = true;
      if (rows[0]) {
        for (const c of await reconcileAlerts(client, rows[0].sampledAt)) {
          logger.warn(c, `alert ${c.kind} ${c.change} in ${c.region}`);
        }
      }
      // The HA manager's promotions, as audit events (its own failure is no gap in the history).
      await recordPromotions().catch((e: unknown) =>
        logger.warn({ err: (e as Error).message }, 'lag sampler: promotions not recorded; retrying next tick'),
      );
      if (!s.lastCompaction || now - s.lastCompaction >= 60_000) {
        s.lastCompaction = now;
        await compact(client, now);
      }
    } catch (e) {
      logger.warn({ err: (e as Error).message }, 'lag sampler: tick failed (a gap in the history)');
      const c = s.client;
      s.client = undefined;
      await c?.end().catch(() => {});
    } finally {
      s.ticking = undefined;
    }
  })());
  return run.then(() => sampled);
}

/** Starts sampling in this process (idempotent); ticks aligned to the interval. */
export function startLagSampler(): void {
  const s = state();
  if (s.timer || env().ATLAS_SAMPLER === 'off') return;
  const interval = env().ATLAS_SAMPLE_INTERVAL_MS;
  const schedule = () => {
    const wait = interval - (Date.now() % interval) + 50; // just after the boundary
    s.timer = setTimeout(() => {
      void sampleTick().finally(() => {
        if (state().timer) schedule();
      });
    }, wait);
    s.timer.unref();
  };
  schedule();
}

/** Stops sampling and releases the lock (its connection closes). */
export async function stopLagSampler(): Promise<void> {
  const s = state();
  if (s.timer) clearTimeout(s.timer);
  s.timer = undefined;
  await s.ticking?.catch(() => {});
  const c = s.client;
  s.client = undefined;
  s.lastCompaction = undefined;
  await c?.end().catch(() => {});
}
