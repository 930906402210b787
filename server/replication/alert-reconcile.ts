// Opening and closing alerts from the stored samples, in the sampler's tick and transaction, one
// audit event per open and per close (docs/atlas.md#alerts).
import { inTransaction, type BackgroundClient } from '../db/background';
import { execute, run } from '../db/sql';
import { env } from '../env';
import { newId } from '../ids/resource-id';
import {
  ALERT_AUDIT,
  evaluateLink,
  evaluateRegion,
  LINK_BASELINE_PERCENTILE,
  LINK_BASELINE_WINDOW_MS,
  linkBaseline,
  linkRunLength,
  type AlertLimits,
  type AlertSample,
  type Condition,
  type LinkLimits,
  type LinkSample,
} from './alert-rules';
import { alertAuditEvent, closeAlert, openAlert, openAlertsForUpdate, recentSamples, refreshAlert } from './alerts.sql';
import { linkBaselines } from './primary-link.sql';

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

export function linkLimits(): LinkLimits {
  const e = env();
  return {
    factor: e.ATLAS_LINK_RTT_FACTOR,
    marginMs: e.ATLAS_LINK_RTT_MARGIN_MS,
    holdMs: e.ATLAS_LINK_RTT_SECONDS * 1000,
    intervalMs: e.ATLAS_SAMPLE_INTERVAL_MS,
  };
}

/** The latest raw samples of each region up to `sampledAt` (enough for every rule), newest first. */
async function samplesByRegion(client: BackgroundClient, sampledAt: Date, limits: AlertLimits, link: LinkLimits) {
  const span = Math.max(limits.samples, linkRunLength(link));
  const since = new Date(sampledAt.getTime() - (span + 0.5) * limits.intervalMs);
  const byRegion = new Map<string, { alert: AlertSample[]; link: LinkSample[] }>();
  for (const r of await run(client, recentSamples, since, sampledAt)) {
    let lists = byRegion.get(r.region);
    if (!lists) byRegion.set(r.region, (lists = { alert: [], link: [] }));
    lists.link.push({ sampledAt: r.sampled_at, primaryRttMs: r.primary_rtt_ms });
    // The lag and error rules judge their own (shorter) run: only the newest `samples` + 1.
    if (lists.alert.length <= limits.samples) {
      lists.alert.push({
        sampledAt: r.sampled_at,
        replicaUp: r.replica_up,
        lagBytes: r.lag_bytes === null ? null : BigInt(r.lag_bytes),
        lagSeconds: r.lag_seconds,
        reads: r.reads,
        writes: r.writes,
        errors: r.errors,
      });
    }
  }
  return byRegion;
}

/**
 * Opens and closes alerts from the stored samples at `sampledAt`, in one transaction on the
 * sampler's lock-holding connection (the caller holds the lock). Returns what changed.
 */
export async function reconcileAlerts(client: BackgroundClient, sampledAt: Date): Promise<AlertChange[]> {
  const limits = alertLimits();
  const link = linkLimits();
  const byRegion = await samplesByRegion(client, sampledAt, limits, link);
  const hour = new Map(
    (
      await run(
        client,
        linkBaselines,
        LINK_BASELINE_PERCENTILE,
        new Date(sampledAt.getTime() - LINK_BASELINE_WINDOW_MS),
        sampledAt,
      )
    ).map((b) => [b.region, { baselineMs: b.baseline_ms, samples: b.samples }]),
  );
  const changes: AlertChange[] = [];
  await inTransaction(client, async (tx) => {
    const openBy = new Map((await run(tx, openAlertsForUpdate)).map((r) => [`${r.kind}:${r.region}`, r]));
    for (const [region, samples] of byRegion) {
      // Only a region sampled at this tick is judged (a missing sample says nothing).
      if (samples.alert[0]!.sampledAt.getTime() !== sampledAt.getTime()) continue;
      const openLink = openBy.get(`link_slow:${region}`);
      const baselineMs = linkBaseline(openLink && { baselineMs: openLink.baseline_rtt_ms }, hour.get(region), link);
      const conditions = [...evaluateRegion(samples.alert, limits), evaluateLink(samples.link, baselineMs, link)];
      for (const c of conditions) {
        const key = `${c.kind}:${region}`;
        const existing = openBy.get(key);
        const audit = ALERT_AUDIT[c.kind];
        const details = {
          lag_seconds: c.lagSeconds ?? null,
          lag_bytes: c.lagBytes === undefined || c.lagBytes === null ? null : Number(c.lagBytes),
          error_rate: c.errorRate ?? null,
          ...(c.kind === 'link_slow' ? { rtt_ms: c.rttMs ?? null, baseline_rtt_ms: c.baselineMs ?? null } : {}),
          limits: {
            lag_seconds: limits.lagSeconds,
            lag_bytes: limits.lagBytes,
            samples: limits.samples,
            ...(c.kind === 'link_slow'
              ? {
                  link_rtt_factor: link.factor,
                  link_rtt_margin_ms: link.marginMs,
                  link_rtt_seconds: link.holdMs / 1000,
                }
              : {}),
          },
        };
        const latest = [
          sampledAt,
          c.lagSeconds ?? null,
          details.lag_bytes,
          c.errorRate ?? null,
          c.rttMs ?? null,
        ] as const;
        const event = (action: string, id: string, metadata: object) =>
          execute(tx, alertAuditEvent, newId('evt'), action, id, region, JSON.stringify(metadata));
        if (c.firing === true && !existing) {
          const id = newId('alr');
          const { startedAt } = c;
          if (
            (await execute(
              tx,
              openAlert,
              id,
              c.kind,
              region,
              key,
              startedAt ?? null,
              ...latest,
              c.baselineMs ?? null,
            )) === 1
          ) {
            await event(audit.open, id, { ...details, started_at: startedAt?.toISOString() });
            changes.push({ id, kind: c.kind, region, change: 'opened' });
          }
        } else if (c.firing === false && existing) {
          if ((await execute(tx, closeAlert, existing.id, ...latest)) === 1) {
            await event(audit.close, existing.id, {
              ...details,
              peak_lag_seconds: existing.peak_lag_seconds,
              peak_lag_bytes: existing.peak_lag_bytes === null ? null : Number(existing.peak_lag_bytes),
              ...(c.kind === 'link_slow' ? { peak_rtt_ms: existing.peak_rtt_ms } : {}),
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
