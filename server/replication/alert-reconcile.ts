// Opening and closing alerts from the stored samples, in the sampler's tick and transaction, one
// audit event per open and per close (docs/atlas.md#alerts).
import { inTransaction, type BackgroundClient } from '../db/background';
import { execute, run } from '../db/sql';
import { env } from '../env';
import { newId } from '../ids/resource-id';
import { ALERT_AUDIT, evaluateRegion, type AlertLimits, type AlertSample, type Condition } from './alert-rules';
import { alertAuditEvent, closeAlert, openAlert, openAlertsForUpdate, recentSamples, refreshAlert } from './alerts.sql';

export interface AlertChange {
  id: string;
  kind: Condition['kind'];
  region: string;
  change: 'opened' | 'closed';
}

function alertLimits(): AlertLimits {
  const e = env();
  return {
    lagBytes: e.REPLICA_MAX_LAG_BYTES,
    lagSeconds: e.REPLICA_MAX_LAG_SECONDS,
    samples: e.ATLAS_LAG_SAMPLES,
    intervalMs: e.ATLAS_SAMPLE_INTERVAL_MS,
  };
}

/** The latest raw samples of each region up to `sampledAt`, newest first. */
async function samplesByRegion(client: BackgroundClient, sampledAt: Date, limits: AlertLimits) {
  const since = new Date(sampledAt.getTime() - (limits.samples + 0.5) * limits.intervalMs);
  const byRegion = new Map<string, AlertSample[]>();
  for (const r of await run(client, recentSamples, since, sampledAt)) {
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
  return byRegion;
}

/**
 * Opens and closes alerts from the stored samples at `sampledAt`, in one transaction on the
 * sampler's lock-holding connection (the caller holds the lock). Returns what changed.
 */
export async function reconcileAlerts(client: BackgroundClient, sampledAt: Date): Promise<AlertChange[]> {
  const limits = alertLimits();
  const byRegion = await samplesByRegion(client, sampledAt, limits);
  const changes: AlertChange[] = [];
  await inTransaction(client, async (tx) => {
    const openBy = new Map((await run(tx, openAlertsForUpdate)).map((r) => [`${r.kind}:${r.region}`, r]));
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
        const latest = [sampledAt, c.lagSeconds ?? null, details.lag_bytes, c.errorRate ?? null] as const;
        const event = (action: string, id: string, metadata: object) =>
          execute(tx, alertAuditEvent, newId('evt'), action, id, region, JSON.stringify(metadata));
        if (c.firing === true && !existing) {
          const id = newId('alr');
          const { startedAt } = c;
          if ((await execute(tx, openAlert, id, c.kind, region, key, startedAt ?? null, ...latest)) === 1) {
            await event(audit.open, id, { ...details, started_at: startedAt?.toISOString() });
            changes.push({ id, kind: c.kind, region, change: 'opened' });
          }
        } else if (c.firing === false && existing) {
          if ((await execute(tx, closeAlert, existing.id, ...latest)) === 1) {
            await event(audit.close, existing.id, {
              ...details,
              peak_lag_seconds: existing.peak_lag_seconds,
              peak_lag_bytes: existing.peak_lag_bytes === null ? null : Number(existing.peak_lag_bytes),
            });
            changes.push({ id: existing.id, kind: c.kind, region, change: 'closed' });
          }
        } else if (existing) {
          await execute(tx, refreshAlert, existing.id, ...latest);
        }
      }
    }
  });
  return changes;
}
