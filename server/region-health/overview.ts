// Atlas' view of each region, from in-memory state only (registry, health monitor, debounced lag,
// traffic, the links' last readings), so it answers with a server down (docs/atlas.md#with-a-server-down).
import { env } from '../env';
import { ensureHealthMonitor, primaryHealth, replicaHealth } from '../db/health';
import { replicaRegions } from '../db/topology';
import { regionByCode, regionRegistry } from '../region/registry';
import { setRegionStatus, type RegionStatus } from '../region/status';
import type { DataRequest } from '../db/request-state';
import type { RegionRow } from '../region/repository';
import { regionTraffic, WINDOW_SECONDS, type TrafficSummary } from '../telemetry/region-traffic';
import { ensureLagDebounce, lagRun } from '../replication/lag-debounce';
import { linkView } from '../replication/primary-link';
import type { RegionHealthView, RegionOverview, ReplicaState } from './region-views';

/** A probe older than this many intervals says nothing about now: the state is unknown. */
const STALE_INTERVALS = 5;

export function healthView(region: string, now = Date.now()): RegionHealthView {
  const stale = (at: number | undefined) =>
    at === undefined || now - at > STALE_INTERVALS * env().HEALTH_PROBE_INTERVAL_MS + 2_000;
  const p = primaryHealth();
  const primary_reachable = stale(p.checkedAt) ? null : p.up;
  if (!replicaRegions().includes(region)) {
    return {
      replica_state: 'unknown',
      serving_reads: null,
      lag_bytes: null,
      lag_seconds: null,
      lagging_since: null,
      over_limit_samples: 0,
      checked_at: null,
      primary_reachable,
      error: 'no replica configured for this region',
    };
  }
  const h = replicaHealth(region);
  const run = lagRun(region);
  const known = h.status !== 'unknown' && !stale(h.checkedAt);
  let replica_state: ReplicaState = known ? h.status : 'unknown';
  if (replica_state === 'lagging' && run.laggingSince === undefined) replica_state = 'healthy'; // not yet debounced
  const down = h.status === 'down';
  return {
    replica_state,
    serving_reads: known ? h.status === 'healthy' : null,
    lag_bytes: known && !down ? (h.lagBytes ?? null) : null,
    lag_seconds: known && !down && h.lagSeconds !== undefined ? Math.round(h.lagSeconds * 1000) / 1000 : null,
    lagging_since: run.laggingSince !== undefined ? new Date(run.laggingSince).toISOString() : null,
    over_limit_samples: run.overLimit,
    checked_at: h.checkedAt ? new Date(h.checkedAt).toISOString() : null,
    primary_reachable,
    error: h.error ?? null,
  };
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** The reasons a region's card is degraded, in words (pure: tested on its own). */
export function degradedReasons(
  region: Pick<RegionRow, 'status'>,
  h: RegionHealthView,
  traffic: { reads: TrafficSummary; writes: TrafficSummary },
  limits: RegionOverview['limits'],
): string[] {
  const out: string[] = [];
  if (region.status === 'draining') out.push('Draining: the region takes no new clusters; existing ones keep working.');
  if (region.status === 'down') out.push('Marked down by an operator: new work in this region answers 503.');
  if (h.primary_reachable === false) out.push('Primary unreachable: writes fail with 503; reads go on from replicas.');
  if (h.primary_reachable === null) out.push('Primary state unknown: no recent probe.');
  if (h.replica_state === 'down') {
    out.push(
      h.primary_reachable === false
        ? 'Replica unreachable and the primary too: reads in this region fail.'
        : 'Replica unreachable: reads go to the primary.',
    );
  } else if (h.replica_state === 'unknown') {
    out.push('Replica state unknown: no recent probe.');
  } else if (h.replica_state === 'lagging') {
    const since = h.lagging_since ? new Date(h.lagging_since).toISOString().slice(11, 19) : '?';
    out.push(
      `Replica lagging since ${since} UTC: ${h.lag_seconds ?? '?'} s and ${bytes(h.lag_bytes ?? 0)} behind ` +
        `(limits ${limits.lag_seconds} s, ${bytes(limits.lag_bytes)}); reads go to the primary.`,
    );
  } else if (h.serving_reads === false) {
    out.push(
      `Replica over a lag limit (${h.over_limit_samples} of ${limits.lag_samples} probes before it counts as lagging); reads go to the primary meanwhile.`,
    );
  }
  for (const [kind, t] of [
    ['reads', traffic.reads],
    ['writes', traffic.writes],
  ] as const) {
    if (t.requests >= 10 && t.error_rate >= 0.05) {
      out.push(`High error rate: ${(t.error_rate * 100).toFixed(1)}% of ${kind} answered 5xx in the last 5 minutes.`);
    }
  }
  return out;
}

function overview(r: RegionRow, now: number): RegionOverview {
  const e = env();
  const limits = {
    lag_bytes: e.REPLICA_MAX_LAG_BYTES,
    lag_seconds: e.REPLICA_MAX_LAG_SECONDS,
    lag_samples: e.ATLAS_LAG_SAMPLES,
  };
  const health = healthView(r.code, now);
  const traffic = {
    window_seconds: WINDOW_SECONDS,
    reads: regionTraffic(r.code, 'read', WINDOW_SECONDS, now),
    writes: regionTraffic(r.code, 'write', WINDOW_SECONDS, now),
  };
  const reasons = degradedReasons(r, health, traffic, limits);
  return { ...r, health, link: linkView(r.code, now), degraded: reasons.length > 0, reasons, traffic, limits };
}

async function ready(): Promise<void> {
  ensureLagDebounce();
  await ensureHealthMonitor();
}

/** Every region, ordered as the registry lists them (primary first), a page at a time. */
export async function regionsOverview(
  opts: { limit: number; cursor?: string } = { limit: 50 },
): Promise<{ data: RegionOverview[]; next_cursor: string | null }> {
  await ready();
  const now = Date.now();
  const all = (await regionRegistry()).all();
  const start = opts.cursor ? all.findIndex((r) => r.code === opts.cursor) + 1 : 0;
  const page = all.slice(start, start + opts.limit);
  const more = start + opts.limit < all.length;
  return { data: page.map((r) => overview(r, now)), next_cursor: more ? page.at(-1)!.code : null };
}

/** One region (400 invalid_region for a malformed code, 404 for an unknown one). */
export async function regionOverview(code: string): Promise<RegionOverview> {
  const region = await regionByCode(code);
  await ready();
  return overview(region, Date.now());
}

/** An operator sets a region's status (audited, every gateway reloads); answers the region's new view. */
export async function updateRegionStatus(
  req: DataRequest,
  actorId: string,
  input: { code: string; status: RegionStatus; reason: string },
): Promise<RegionOverview> {
  await setRegionStatus(req, actorId, input);
  return regionOverview(input.code);
}
