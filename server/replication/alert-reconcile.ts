// Atlas alerts: a replica over its lag limit (REPLICA_MAX_LAG_SECONDS / _BYTES) for
// ATLAS_LAG_SAMPLES consecutive lag samples, a replica unreachable as long, or a region's error
// rate high over those samples, opens an alert; the condition clearing closes it. Raised from the
// lag sampler's tick, so the one process holding the sampler's advisory lock is the single writer,
// and from the stored samples, so every gateway would decide the same. Alerts live in
// atlas_alerts (open_key unique while open): a restart neither raises an open alert again nor
// forgets it, and each episode writes exactly one audit event when it opens and one when it closes,
// in the same transaction. A primary that this gateway cannot reach is reported live (nothing can
// be stored on a primary that is down; Prometheus' MeridianPrimaryDown rule pages on it).
import type pg from 'pg';
import { read } from '../db/access';
import { primaryHealth } from '../db/health';
import type { DataRequest } from '../db/request-state';
import { env } from '../env';
import { AppError } from '../errors';
import { newId } from '../ids/resource-id';
import { regionRegistry } from '../region/registry';

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

interface OpenRow {
  id: string;
  kind: Condition['kind'];
  region: string;
  peak_lag_seconds: number | null;
  peak_lag_bytes: string | null;
}

export interface AlertChange {
  id: string;
  kind: Condition['kind'];
  region: string;
  change: 'opened' | 'closed';
}

/**
 * Opens and closes alerts from the stored samples at `sampledAt`, in one transaction on the
 * sampler's lock-holding connection (the caller holds the lock). Returns what changed.
 */
export async function reconcileAlerts(client: pg.Client, sampledAt: Date): Promise<AlertChange[]> {
  const e = env();
  const limits: AlertLimits = {
    lagBytes: e.REPLICA_MAX_LAG_BYTES,
    lagSeconds: e.REPLICA_MAX_LAG_SECONDS,
    samples: e.ATLAS_LAG_SAMPLES,
    intervalMs: e.ATLAS_SAMPLE_INTERVAL_MS,
  };
  const since = new Date(sampledAt.getTime() - (limits.samples + 0.5) * limits.intervalMs);
  const rows = await client.query<{
    sampled_at: Date;
    region: string;
    replica_up: boolean | null;
    lag_bytes: string | null;
    lag_seconds: number | null;
    reads: number;
    writes: number;
    errors: number;
  }>(
    `SELECT sampled_at, region, replica_up, lag_bytes::text AS lag_bytes, lag_seconds, reads, writes, errors
       FROM lag_samples
      WHERE resolution_seconds = 5 AND sampled_at > $1 AND sampled_at <= $2
      ORDER BY region, sampled_at DESC`,
    [since, sampledAt],
  );
  const byRegion = new Map<string, AlertSample[]>();
  for (const r of rows.rows) {
    const list = byRegion.get(r.region) ?? [];
    list.push({
      sampledAt: r.sampled_at,
      replicaUp: r.replica_up,
      lagBytes: r.lag_bytes === null ? null : BigInt(r.lag_bytes),
      lagSeconds: r.lag_seconds,
      reads: r.reads,
      writes: r.writes,
      errors: r.errors,
    });
    byRegion.set(r.region, list);
  }
  const changes: AlertChange[] = [];
  await client.query('BEGIN');
  try {
    const open = await client.query<OpenRow>(
      `SELECT id, kind, region, peak_lag_seconds, peak_lag_bytes::text AS peak_lag_bytes
         FROM atlas_alerts WHERE open_key IS NOT NULL FOR UPDATE`,
    );
    const openBy = new Map(open.rows.map((r) => [`${r.kind}:${r.region}`, r]));
    for (const [region, samples] of byRegion) {
      // Only a region sampled at this tick is judged (a missing sample says nothing).
      if (samples[0]!.sampledAt.getTime() !== sampledAt.getTime()) continue;
      for (const c of evaluateRegion(samples, limits)) {
        const key = `${c.kind}:${region}`;
        const existing = openBy.get(key);
        const audit = ALERT_AUDIT[c.kind];
        const details = {
          lag_seconds: c.lagSeconds ?? null,
          lag_bytes: c.lagBytes === undefined || c.lagBytes === null ? null : Number(c.lagBytes),
          error_rate: c.errorRate ?? null,
          limits: { lag_seconds: limits.lagSeconds, lag_bytes: limits.lagBytes, samples: limits.samples },
        };
        if (c.firing === true && !existing) {
          const id = newId('alr');
          const inserted = await client.query(
            `INSERT INTO atlas_alerts (id, kind, region, open_key, started_at, opened_at, last_sample_at,
                                       lag_seconds, lag_bytes, peak_lag_seconds, peak_lag_bytes, error_rate)
             VALUES ($1, $2, $3, $4, $5, now(), $6, $7, $8, $7, $8, $9)
             ON CONFLICT (open_key) DO NOTHING RETURNING id`,
            [
              id,
              c.kind,
              region,
              key,
              c.startedAt,
              sampledAt,
              c.lagSeconds ?? null,
              details.lag_bytes,
              c.errorRate ?? null,
            ],
          );
          if (inserted.rowCount === 1) {
            await audit_(client, audit.open, id, region, { ...details, started_at: c.startedAt?.toISOString() });
            changes.push({ id, kind: c.kind, region, change: 'opened' });
          }
        } else if (c.firing === false && existing) {
          const closed = await client.query(
            `UPDATE atlas_alerts SET open_key = NULL, closed_at = now(), last_sample_at = $2,
                    lag_seconds = $3, lag_bytes = $4, error_rate = $5
              WHERE id = $1 AND open_key IS NOT NULL RETURNING id`,
            [existing.id, sampledAt, c.lagSeconds ?? null, details.lag_bytes, c.errorRate ?? null],
          );
          if (closed.rowCount === 1) {
            await audit_(client, audit.close, existing.id, region, {
              ...details,
              peak_lag_seconds: existing.peak_lag_seconds,
              peak_lag_bytes: existing.peak_lag_bytes === null ? null : Number(existing.peak_lag_bytes),
            });
            changes.push({ id: existing.id, kind: c.kind, region, change: 'closed' });
          }
        } else if (existing) {
          // Still open: the banner shows the latest values; peaks survive for the closing event.
          await client.query(
            `UPDATE atlas_alerts SET last_sample_at = $2,
                    lag_seconds = COALESCE($3, lag_seconds), lag_bytes = COALESCE($4, lag_bytes),
                    peak_lag_seconds = GREATEST(peak_lag_seconds, $3), peak_lag_bytes = GREATEST(peak_lag_bytes, $4),
                    error_rate = COALESCE($5, error_rate)
              WHERE id = $1`,
            [existing.id, sampledAt, c.lagSeconds ?? null, details.lag_bytes, c.errorRate ?? null],
          );
        }
      }
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
  return changes;
}

/** An audit event by the system (no actor), in the caller's transaction. */
async function audit_(client: pg.Client, action: string, alertId: string, region: string, metadata: object) {
  await client.query(
    `INSERT INTO audit_events (id, action, target_type, target_id, region, metadata)
     VALUES ($1, $2, 'alert', $3, $4, $5::jsonb)`,
    [newId('evt'), action, alertId, region, JSON.stringify(metadata)],
  );
}

export interface AlertView {
  id: string;
  kind: AlertKind;
  region: string;
  state: 'open' | 'closed';
  /** false: reported live from this gateway's health probes, not stored (primary_down). */
  durable: boolean;
  started_at: string | null;
  opened_at: string | null;
  closed_at: string | null;
  last_sample_at: string | null;
  lag_seconds: number | null;
  lag_bytes: number | null;
  peak_lag_seconds: number | null;
  peak_lag_bytes: number | null;
  error_rate: number | null;
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const date = new Date(at ?? '');
  if (!id || Number.isNaN(date.getTime())) throw new AppError('invalid_request', 'malformed cursor');
  return { at: date, id };
}
const encodeCursor = (at: Date, id: string) => Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');

/** Alerts, newest first: open ones (the banner) or every episode; a live primary_down first. */
export async function listAlerts(
  req: DataRequest,
  f: { state: 'open' | 'all'; region?: string; limit: number; cursor?: string },
): Promise<{
  data: AlertView[];
  next_cursor: string | null;
  limits: { lag_seconds: number; lag_bytes: number; samples: number; error_rate: number };
}> {
  const after = f.cursor ? decodeCursor(f.cursor) : undefined;
  const rows = await read(req, (db) =>
    db.atlasAlert.findMany({
      where: {
        AND: [
          f.state === 'open' ? { openKey: { not: null } } : {},
          f.region ? { region: f.region } : {},
          after ? { OR: [{ openedAt: { lt: after.at } }, { openedAt: after.at, id: { lt: after.id } }] } : {},
        ],
      },
      orderBy: [{ openedAt: 'desc' }, { id: 'desc' }],
      take: f.limit + 1,
    }),
  );
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  const data: AlertView[] = page.map((a) => ({
    id: a.id,
    kind: a.kind as AlertKind,
    region: a.region,
    state: a.openKey ? 'open' : 'closed',
    durable: true,
    started_at: a.startedAt.toISOString(),
    opened_at: a.openedAt.toISOString(),
    closed_at: a.closedAt?.toISOString() ?? null,
    last_sample_at: a.lastSampleAt.toISOString(),
    lag_seconds: a.lagSeconds,
    lag_bytes: a.lagBytes === null ? null : Number(a.lagBytes),
    peak_lag_seconds: a.peakLagSeconds,
    peak_lag_bytes: a.peakLagBytes === null ? null : Number(a.peakLagBytes),
    error_rate: a.errorRate,
  }));
  const p = primaryHealth();
  if (!f.cursor && p.checkedAt !== undefined && !p.up) {
    const primaryRegion = (await regionRegistry()).all().find((r) => r.isPrimary)?.code ?? 'primary';
    if (!f.region || f.region === primaryRegion) {
      data.unshift({
        id: 'live_primary_down',
        kind: 'primary_down',
        region: primaryRegion,
        state: 'open',
        durable: false,
        started_at: null,
        opened_at: null,
        closed_at: null,
        last_sample_at: new Date(p.checkedAt).toISOString(),
        lag_seconds: null,
        lag_bytes: null,
        peak_lag_seconds: null,
        peak_lag_bytes: null,
        error_rate: null,
      });
    }
  }
  const e = env();
  return {
    data,
    next_cursor: rows.length > f.limit && last ? encodeCursor(last.openedAt, last.id) : null,
    limits: {
      lag_seconds: e.REPLICA_MAX_LAG_SECONDS,
      lag_bytes: e.REPLICA_MAX_LAG_BYTES,
      samples: e.ATLAS_LAG_SAMPLES,
      error_rate: ERROR_RATE_LIMIT,
    },
  };
}
