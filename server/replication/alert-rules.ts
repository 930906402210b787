// When an alert fires and clears, from a region's latest samples (pure: unit-tested)
// (docs/atlas.md#alerts).

export type AlertKind = 'replica_lagging' | 'replica_down' | 'error_rate_high' | 'primary_down';

/** Audit actions: `open` when an episode starts, `close` when it ends. */
export const ALERT_AUDIT: Record<Exclude<AlertKind, 'primary_down'>, { open: string; close: string }> = {
  replica_lagging: { open: 'alert.replica_lagging', close: 'alert.replica_recovered' },
  replica_down: { open: 'alert.replica_down', close: 'alert.replica_reachable' },
  error_rate_high: { open: 'alert.error_rate_high', close: 'alert.error_rate_recovered' },
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
  kind: Exclude<AlertKind, 'primary_down'>;
  /** true: the condition holds for `samples` samples in a row; false: it is over; null: not known. */
  firing: boolean | null;
  /** The first sample of the run (when it fires). */
  startedAt?: Date;
  lagSeconds?: number | null;
  lagBytes?: bigint | null;
  errorRate?: number | null;
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
