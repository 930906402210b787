// Each region's round trip to the primary, shared: every gateway process publishes its own
// reading (server/db/health.ts measures it) once per sampler interval and, in the same
// statement, reads every other gateway's, so Atlas at any gateway shows every region's link
// from memory (docs/atlas.md#the-link-to-the-primary).
import { backgroundPool } from '../db/background';
import { ensureHealthMonitor, primaryHealth, primaryRtt } from '../db/health';
import { run } from '../db/sql';
import { gatewayId } from '../db/write-position-state';
import { env } from '../env';
import { processSingleton } from '../process-singletons';
import { regionRegistry } from '../region/registry';
import { logger } from '../telemetry/logger';
import { publishLink } from './primary-link.sql';

/** Readings older than this many sampler intervals are no one's link any more. */
export const FRESH_INTERVALS = 3;

interface RegionReading {
  rttMs: number;
  gateways: number;
  measuredAt: Date;
  /** When this process read it (ms): it counts for FRESH_INTERVALS intervals from then. */
  readAt: number;
}

interface State {
  timer?: NodeJS.Timeout;
  ticking?: Promise<void>;
  readings: Map<string, RegionReading>;
  /** The region this process's link counts for (resolved once: the registry's primary for `global`). */
  site?: string;
  failing?: boolean;
}

const state = () => processSingleton<State>('primary-links', () => ({ readings: new Map() }));

/** Seconds a reading stays fresh. */
export const freshSeconds = () => (FRESH_INTERVALS * env().ATLAS_SAMPLE_INTERVAL_MS) / 1000;

/**
 * The region whose link this process measures: the region it serves; a gateway of the global
 * address counts for the primary's region (it runs beside the primary in both shapes of the
 * launcher; with gateways elsewhere, the region's lowest reading still wins).
 */
async function site(): Promise<string | undefined> {
  const s = state();
  if (s.site) return s.site;
  const own = env().MERIDIAN_GATEWAY_REGION;
  s.site = own !== 'global' ? own : (await regionRegistry()).all().find((r) => r.isPrimary)?.code;
  return s.site;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** One publish: this process's reading up, everyone else's back. Exported for tests. */
export function publishTick(): Promise<void> {
  const s = state();
  return (s.ticking ??= (async () => {
    try {
      await ensureHealthMonitor();
      const mine = primaryRtt();
      const region = await site();
      if (!mine || !region || !primaryHealth().up) return; // nothing to say (and no primary to say it to)
      const rows = await run(
        backgroundPool(),
        publishLink,
        region,
        gatewayId(),
        round(mine.medianMs),
        round(mine.minMs),
        mine.probes,
        freshSeconds(),
      );
      const readAt = Date.now();
      s.readings.clear();
      for (const r of rows) {
        s.readings.set(r.region, { rttMs: r.rtt_ms, gateways: r.gateways, measuredAt: r.measured_at, readAt });
      }
      if (s.failing) logger.info('primary links: publishing again');
      s.failing = false;
    } catch (e) {
      if (!s.failing)
        logger.warn(
          { err: (e as Error).message },
          'primary links: publish failed (cards keep the last readings while fresh)',
        );
      s.failing = true;
    } finally {
      s.ticking = undefined;
    }
  })());
}

export interface LinkView {
  /** The region's round trip to the primary (ms): the lowest of its gateways' fresh readings. */
  rtt_ms: number | null;
  /** Gateway processes of the region with a fresh reading. */
  gateways: number;
  measured_at: string | null;
}

/** `region`'s link as this process knows it now: the others' last readings plus its own, live. */
export function linkView(region: string, now = Date.now()): LinkView {
  const s = state();
  const freshMs = freshSeconds() * 1000;
  const theirs = s.readings.get(region);
  const fresh = theirs && now - theirs.readAt <= freshMs ? theirs : undefined;
  const live = primaryRtt();
  const mine = s.site === region && live && primaryHealth().up && now - live.measuredAt <= freshMs ? live : undefined;
  const candidates = [fresh?.rttMs, mine?.medianMs].filter((v): v is number => v !== undefined);
  if (candidates.length === 0) return { rtt_ms: null, gateways: 0, measured_at: null };
  const at = Math.max(fresh?.measuredAt.getTime() ?? 0, mine?.measuredAt ?? 0);
  return {
    rtt_ms: Math.round(Math.min(...candidates) * 10) / 10,
    gateways: (fresh?.gateways ?? 0) + (mine ? 1 : 0),
    measured_at: new Date(at).toISOString(),
  };
}

/** Starts publishing in this process (idempotent), every sampler interval with ±20% jitter. */
export function startPrimaryLinks(): void {
  const s = state();
  if (s.timer) return;
  const interval = env().ATLAS_SAMPLE_INTERVAL_MS;
  const schedule = (wait: number) => {
    s.timer = setTimeout(() => {
      void publishTick().finally(() => {
        if (state().timer) schedule(interval * (0.8 + Math.random() * 0.4));
      });
    }, wait);
    s.timer.unref();
  };
  schedule(0);
}

/** Stops publishing and forgets the readings (a restarted process starts from nothing). */
export async function stopPrimaryLinks(): Promise<void> {
  const s = state();
  if (s.timer) clearTimeout(s.timer);
  s.timer = undefined;
  await s.ticking?.catch(() => {});
  s.readings.clear();
  s.site = undefined;
  s.failing = false;
}
