// When an alert fires and clears, from a region's latest samples (pure: unit-tested)
// (docs/atlas.md#alerts, docs/atlas.md#the-link-to-the-primary).

export type AlertKind =
  'replica_lagging' | 'replica_down' | 'error_rate_high' | 'link_slow' | 'primary_down' | 'primary_failover';
/** Reported live from this gateway's view (health probes, the HA manager), never stored. */
export type LiveAlertKind = 'primary_down' | 'primary_failover';

/** Audit actions: `open` when an episode starts, `close` when it ends. */
export const ALERT_AUDIT: Record<Exclude<AlertKind, LiveAlertKind>, { open: string; close: string }> = {
  replica_lagging: { open: 'alert.replica_lagging', close: 'alert.replica_recovered' },
  replica_down: { open: 'alert.replica_down', close: 'alert.replica_reachable' },
  error_rate_high: { open: 'alert.error_rate_high', close: 'alert.error_rate_recovered' },
  link_slow: { open: 'alert.link_slow', close: 'alert.link_recovered' },
};

/** The same thresholds as the region cards' "High error rate" reason. */
export const ERROR_RATE_LIMIT = 0.05;
export const ERROR_RATE_MIN_REQUESTS = 10;

export interface AlertSample {
  sampledAt: Date;
  replicaUp: boolean | null;
  lagBytes: bigint | null;
  lagSeconds: number | null;
  reads: number;
  writes: number;
  errors: number;
}

export interface AlertLimits {
  lagBytes: number;
  lagSeconds: number;
  /** Consecutive samples a condition must hold before it opens an alert. */
  samples: number;
  intervalMs: number;
}

export interface Condition {
  kind: Exclude<AlertKind, LiveAlertKind>;
  /** true: the condition holds for `samples` samples in a row; false: it is over; null: not known. */
  firing: boolean | null;
  /** The first sample of the run (when it fires). */
  startedAt?: Date;
  lagSeconds?: number | null;
  lagBytes?: bigint | null;
  errorRate?: number | null;
  /** link_slow: the latest round trip to the primary and the baseline it was judged against (ms). */
  rttMs?: number | null;
  baselineMs?: number | null;
}

const overLag = (s: AlertSample, l: AlertLimits) =>
  s.lagBytes !== null && (Number(s.lagBytes) > l.lagBytes || (s.lagSeconds ?? 0) > l.lagSeconds);

/**
 * The conditions of one region from its latest raw samples, newest first (pure: unit-tested).
 * A run counts only when its samples are consecutive (no missed tick between them).
 */
export function evaluateRegion(samplesNewestFirst: AlertSample[], l: AlertLimits): Condition[] {
  const latest = samplesNewestFirst[0];
  if (!latest) return [];
  const run: AlertSample[] = [];
  for (const s of samplesNewestFirst) {
    if (run.length === l.samples) break;
    const expected = latest.sampledAt.getTime() - run.length * l.intervalMs;
    if (Math.abs(s.sampledAt.getTime() - expected) > l.intervalMs / 2) break; // a gap ends the run
    run.push(s);
  }
  const full = run.length === l.samples;
  const oldest = run.at(-1)!;
  const out: Condition[] = [];

  // Lag: over the limit for the whole run fires; the latest sample within the limits clears; an
  // unmeasured latest sample (replica down: replica_down's business) or a run cut short by a gap
  // changes nothing.
  out.push({
    kind: 'replica_lagging',
    firing:
      full && run.every((s) => overLag(s, l)) ? true : latest.lagBytes === null || overLag(latest, l) ? null : false,
    startedAt: oldest.sampledAt,
    lagSeconds: latest.lagSeconds,
    lagBytes: latest.lagBytes,
  });

  if (latest.replicaUp !== null) {
    const down = full && run.every((s) => s.replicaUp === false);
    out.push({
      kind: 'replica_down',
      firing: down ? true : latest.replicaUp ? false : null,
      startedAt: oldest.sampledAt,
    });
  }

  const requests = run.reduce((n, s) => n + s.reads + s.writes, 0);
  const errors = run.reduce((n, s) => n + s.errors, 0);
  const rate = requests > 0 ? errors / requests : 0;
  out.push({
    kind: 'error_rate_high',
    firing: full ? requests >= ERROR_RATE_MIN_REQUESTS && rate >= ERROR_RATE_LIMIT : null,
    startedAt: oldest.sampledAt,
    errorRate: requests > 0 ? rate : null,
  });
  return out;
}

// ---- link_slow: a region's round trip to the primary far above its baseline ----------------

export interface LinkSample {
  sampledAt: Date;
  /** The region's round trip to the primary at this sample (ms); null: no gateway had a reading. */
  primaryRttMs: number | null;
}

export interface LinkLimits {
  /** Over `factor` × baseline… */
  factor: number;
  /** …and over baseline + `marginMs`… */
  marginMs: number;
  /** …in every sample for this long (ms) fires. */
  holdMs: number;
  intervalMs: number;
}

/** The baseline is this percentile of the region's raw samples over the last hour… */
export const LINK_BASELINE_PERCENTILE = 0.1;
export const LINK_BASELINE_WINDOW_MS = 60 * 60_000;
/** …once they cover at least this long (before that, the region's link has no baseline yet). */
export const LINK_BASELINE_MIN_MS = 5 * 60_000;

/** The round trip above which a link counts as slow, for `baselineMs`. */
export function linkThreshold(baselineMs: number, l: LinkLimits): number {
  return Math.max(baselineMs * l.factor, baselineMs + l.marginMs);
}

/**
 * The baseline a region's link is judged against: an open alert's own (frozen when it opened, so
 * an hour of slowness does not become the new normal and close it), else the hour's low
 * percentile once enough samples back it, else none (pure).
 */
export function linkBaseline(
  open: { baselineMs: number | null } | undefined,
  hour: { baselineMs: number | null; samples: number } | undefined,
  l: Pick<LinkLimits, 'intervalMs'>,
): number | null {
  if (open?.baselineMs !== undefined && open.baselineMs !== null) return open.baselineMs;
  if (!hour || hour.baselineMs === null || hour.samples * l.intervalMs < LINK_BASELINE_MIN_MS) return null;
  return hour.baselineMs;
}

/** Consecutive samples that span `holdMs` (the first and last `holdMs` apart). */
export const linkRunLength = (l: Pick<LinkLimits, 'holdMs' | 'intervalMs'>) => Math.ceil(l.holdMs / l.intervalMs) + 1;

/**
 * link_slow for one region from its latest raw samples, newest first (pure: unit-tested). Fires
 * when every sample over the last `holdMs` (consecutive, none unmeasured) is over the threshold;
 * clears on the first measured sample at or under it; an unmeasured latest sample, a run still
 * short or broken by a gap, or no baseline yet changes nothing.
 */
export function evaluateLink(samplesNewestFirst: LinkSample[], baselineMs: number | null, l: LinkLimits): Condition {
  const latest = samplesNewestFirst[0];
  const base = { kind: 'link_slow' as const, rttMs: latest?.primaryRttMs ?? null, baselineMs };
  if (!latest || baselineMs === null || latest.primaryRttMs === null) return { ...base, firing: null };
  const threshold = linkThreshold(baselineMs, l);
  if (latest.primaryRttMs <= threshold) return { ...base, firing: false };
  const need = linkRunLength(l);
  const run: LinkSample[] = [];
  for (const s of samplesNewestFirst) {
    if (run.length === need) break;
    const expected = latest.sampledAt.getTime() - run.length * l.intervalMs;
    if (Math.abs(s.sampledAt.getTime() - expected) > l.intervalMs / 2) break; // a gap ends the run
    if (s.primaryRttMs === null || s.primaryRttMs <= threshold) break;
    run.push(s);
  }
  return run.length === need ? { ...base, firing: true, startedAt: run.at(-1)!.sampledAt } : { ...base, firing: null };
}
