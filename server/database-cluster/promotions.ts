// Every promotion the HA manager remembers (a failover, a switchover, a cluster restart) as one
// audit event, with its timeline and how long this process found the primary unreachable around
// it. Written by the lag sampler's process only (one per deployment).
import { recordAudit } from '../audit/audit';
import { backgroundDb } from '../db/background';
import { primaryHealth } from '../db/health';
import { logger } from '../telemetry/logger';
import { haConfigured, patroniHistory } from './patroni';
import { SWITCHOVER_AUDIT_ACTION } from './switchover';

export const PROMOTION_AUDIT_ACTION = 'database.promotion' as const;

/** How far back an operator's switchover request explains a promotion. */
const REQUESTED_WITHIN_MS = 120_000;

/** Records the promotions not recorded yet; returns how many it wrote. */
export async function recordPromotions(): Promise<number> {
  if (!haConfigured()) return 0;
  const recent = (await patroniHistory()).slice(-20);
  if (recent.length === 0) return 0;
  const db = backgroundDb();
  const ids = recent.map((p) => `timeline-${p.timeline}`);
  const known = new Set(
    (
      await db.auditEvent.findMany({
        where: { action: PROMOTION_AUDIT_ACTION, targetId: { in: ids } },
        select: { targetId: true },
      })
    ).map((r) => r.targetId),
  );
  const outage = primaryHealth().lastOutage;
  let written = 0;
  for (const p of recent) {
    if (known.has(`timeline-${p.timeline}`)) continue;
    const at = p.at ? Date.parse(p.at) : Number.NaN;
    const requested = Number.isFinite(at)
      ? await db.auditEvent.findFirst({
          where: {
            action: SWITCHOVER_AUDIT_ACTION,
            createdAt: { gte: new Date(at - REQUESTED_WITHIN_MS), lte: new Date(at + 5_000) },
          },
          select: { id: true, actorId: true },
        })
      : null;
    // The outage this process saw, when it ended within a minute of the promotion.
    const unavailableMs =
      outage && Number.isFinite(at) && Math.abs(outage.to - at) < 60_000 ? outage.to - outage.from : null;
    await recordAudit(db, {
      action: PROMOTION_AUDIT_ACTION,
      targetType: 'database',
      targetId: `timeline-${p.timeline}`,
      actorId: requested?.actorId ?? null,
      metadata: {
        timeline: p.timeline,
        new_leader: p.newLeader,
        at: p.at,
        reason: p.reason,
        switch_lsn: p.switchLsn,
        kind: requested ? 'switchover' : 'failover_or_restart',
        writes_unavailable_ms: unavailableMs,
      },
    });
    written++;
    logger.warn(
      { timeline: p.timeline, new_leader: p.newLeader, writes_unavailable_ms: unavailableMs },
      'database promotion recorded',
    );
  }
  return written;
}
