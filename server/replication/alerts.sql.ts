// Hand-written SQL of Atlas alerts: the samples they are judged from, the open alerts (locked),
// opening, closing and refreshing one, and the system's audit event of each change.
import { command, statement } from '../db/sql';

const date = (v: unknown) => (v instanceof Date ? v : new Date(v as string));
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export interface RecentSample {
  sampled_at: Date;
  region: string;
  replica_up: boolean | null;
  lag_bytes: string | null;
  lag_seconds: number | null;
  reads: number;
  writes: number;
  errors: number;
  primary_rtt_ms: number | null;
}

/** Raw samples in (since, until], per region newest first. */
export const recentSamples = statement<RecentSample, [since: Date, until: Date]>(
  'alerts.recent_samples',
  `SELECT sampled_at, region, replica_up, lag_bytes::text AS lag_bytes, lag_seconds, reads, writes, errors,
          primary_rtt_ms
     FROM lag_samples
    WHERE resolution_seconds = 5 AND sampled_at > $1::timestamptz AND sampled_at <= $2::timestamptz
    ORDER BY region, sampled_at DESC`,
  (r) => ({
    sampled_at: date(r.sampled_at),
    region: r.region as string,
    replica_up: (r.replica_up as boolean | null) ?? null,
    lag_bytes: (r.lag_bytes as string | null) ?? null,
    lag_seconds: num(r.lag_seconds),
    reads: Number(r.reads),
    writes: Number(r.writes),
    errors: Number(r.errors),
    primary_rtt_ms: num(r.primary_rtt_ms),
  }),
);

export interface OpenAlertRow {
  id: string;
  kind: 'replica_lagging' | 'replica_down' | 'error_rate_high' | 'link_slow';
  region: string;
  peak_lag_seconds: number | null;
  peak_lag_bytes: string | null;
  peak_rtt_ms: number | null;
  baseline_rtt_ms: number | null;
}

/** Every open alert, locked FOR UPDATE to the end of the transaction. */
export const openAlertsForUpdate = statement<OpenAlertRow, []>(
  'alerts.open_for_update',
  `SELECT id, kind, region, peak_lag_seconds, peak_lag_bytes::text AS peak_lag_bytes, peak_rtt_ms, baseline_rtt_ms
     FROM atlas_alerts WHERE open_key IS NOT NULL FOR UPDATE`,
  (r) => ({
    id: r.id as string,
    kind: r.kind as OpenAlertRow['kind'],
    region: r.region as string,
    peak_lag_seconds: num(r.peak_lag_seconds),
    peak_lag_bytes: (r.peak_lag_bytes as string | null) ?? null,
    peak_rtt_ms: num(r.peak_rtt_ms),
    baseline_rtt_ms: num(r.baseline_rtt_ms),
  }),
);

/** Opens an alert unless one is open under its key (then it inserts nothing). */
export const openAlert = command<
  [
    id: string,
    kind: string,
    region: string,
    openKey: string,
    startedAt: Date | null,
    lastSampleAt: Date,
    lagSeconds: number | null,
    lagBytes: number | null,
    errorRate: number | null,
    rttMs: number | null,
    baselineRttMs: number | null,
  ]
>(
  'alerts.open',
  `INSERT INTO atlas_alerts (id, kind, region, open_key, started_at, opened_at, last_sample_at,
                             lag_seconds, lag_bytes, peak_lag_seconds, peak_lag_bytes, error_rate,
                             rtt_ms, peak_rtt_ms, baseline_rtt_ms)
   VALUES ($1::text, $2::text, $3::text, $4::text, $5::timestamptz, now(), $6::timestamptz,
           $7::float8, $8::bigint, $7, $8, $9::float8, $10::float8, $10, $11::float8)
   ON CONFLICT (open_key) DO NOTHING RETURNING id`,
);

type Latest = [
  id: string,
  lastSampleAt: Date,
  lagSeconds: number | null,
  lagBytes: number | null,
  errorRate: number | null,
  rttMs: number | null,
];

/** Closes an open alert with its latest values (nothing when it is closed already). */
export const closeAlert = command<Latest>(
  'alerts.close',
  `UPDATE atlas_alerts SET open_key = NULL, closed_at = now(), last_sample_at = $2::timestamptz,
          lag_seconds = $3::float8, lag_bytes = $4::bigint, error_rate = $5::float8, rtt_ms = $6::float8
    WHERE id = $1::text AND open_key IS NOT NULL RETURNING id`,
);

/** An alert still open: the banner shows the latest values; peaks survive for the closing event. */
export const refreshAlert = command<Latest>(
  'alerts.refresh',
  `UPDATE atlas_alerts SET last_sample_at = $2::timestamptz,
          lag_seconds = COALESCE($3::float8, lag_seconds), lag_bytes = COALESCE($4::bigint, lag_bytes),
          peak_lag_seconds = GREATEST(peak_lag_seconds, $3), peak_lag_bytes = GREATEST(peak_lag_bytes, $4),
          error_rate = COALESCE($5::float8, error_rate),
          rtt_ms = COALESCE($6::float8, rtt_ms), peak_rtt_ms = GREATEST(peak_rtt_ms, $6)
    WHERE id = $1::text`,
);

/** An audit event by the system (no actor) about an alert. */
export const alertAuditEvent = command<[id: string, action: string, alertId: string, region: string, metadata: string]>(
  'alerts.audit_event',
  `INSERT INTO audit_events (id, action, target_type, target_id, region, metadata)
   VALUES ($1::text, $2::text, 'alert', $3::text, $4::text, $5::jsonb)`,
);
