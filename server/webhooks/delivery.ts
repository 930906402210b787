// Webhook delivery: per region this worker serves, a loop that claims the region's due deliveries
// (webhooks.sql.ts), sends each (send.ts), and records the outcome: success, the next retry on the
// schedule (schedule.ts), or the end. docs/flows/webhooks.md#delivery
import { recordAudit } from '../audit/audit';
import { backgroundDb } from '../db/background';
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { listen } from '../db/listen';
import { run } from '../db/sql';
import { env } from '../env';
import { notify } from '../notifications/repository';
import { logger } from '../telemetry/logger';
import { WEBHOOK_CHANNEL } from './events';
import { DISABLE_AFTER_MS, retryDelayMs } from './schedule';
import { postWebhook, type AttemptResult } from './send';
import { endpointSecrets } from './secrets';
import { signedHeaders } from './signing';
import { claimDueDeliveries, type ClaimedDelivery } from './webhooks.sql';

/** A claimed delivery is another worker's again after this long (well past the 10 s attempt). */
const LEASE_SECONDS = 60;

const log = logger.child({ component: 'webhook-worker' });

/** Sends one claimed delivery and records what happened; 'skipped' when it was no longer due. */
export async function attemptDelivery(db: Db, claimed: ClaimedDelivery): Promise<AttemptResult | 'skipped'> {
  const e = env();
  const d = await db.webhookDelivery.findUnique({
    where: { id: claimed.id },
    include: { event: true, endpoint: true },
  });
  if (!d || d.status !== 'pending') return 'skipped';
  if (!d.endpoint.enabled) {
    await db.webhookDelivery.updateMany({
      where: { id: d.id, status: 'pending' },
      data: { status: 'failed', nextAttemptAt: null, lastError: 'the endpoint is disabled' },
    });
    return 'skipped';
  }
  const body = JSON.stringify(d.event.payload);
  const headers = signedHeaders(endpointSecrets(d.endpoint), d.eventId, Math.floor(Date.now() / 1000), body);
  const result = await postWebhook(d.endpoint.url, headers, body, {
    allowLoopback: e.WEBHOOK_ALLOW_LOOPBACK === 'on',
  });
  await recordOutcome(db, claimed, d.endpointId, d.orgId, result);
  return result;
}

async function recordOutcome(
  db: Db,
  claimed: ClaimedDelivery,
  endpointId: string,
  orgId: string,
  r: AttemptResult,
): Promise<void> {
  const now = new Date();
  const last = {
    lastStatusCode: r.status,
    lastLatencyMs: r.latencyMs,
    lastResponse: r.response,
    lastError: r.error?.slice(0, 500) ?? null,
  };
  // Only the attempt that holds the claim records: a worker that lost its lease (another took the
  // delivery over) leaves the row to the newer attempt.
  const mine = { id: claimed.id, status: 'pending', attempts: claimed.attempts };
  if (r.ok) {
    await db.$transaction(async (tx) => {
      const n = await tx.webhookDelivery.updateMany({
        where: mine,
        data: { ...last, status: 'succeeded', deliveredAt: now, nextAttemptAt: null },
      });
      if (n.count) await tx.webhookEndpoint.updateMany({ where: { id: endpointId }, data: { failingSince: null } });
    });
    return;
  }
  const delay = retryDelayMs(claimed.attempts, env().WEBHOOK_RETRY_SCALE);
  await db.$transaction(async (tx) => {
    const n = await tx.webhookDelivery.updateMany({
      where: mine,
      data:
        delay === null
          ? { ...last, status: 'failed', nextAttemptAt: null }
          : { ...last, nextAttemptAt: new Date(now.getTime() + delay) },
    });
    if (!n.count) return;
    const ep = await tx.webhookEndpoint.findUnique({ where: { id: endpointId } });
    if (!ep) return;
    const since = ep.failingSince ?? now;
    if (!ep.failingSince) await tx.webhookEndpoint.update({ where: { id: endpointId }, data: { failingSince: now } });
    if (ep.enabled && now.getTime() - since.getTime() >= DISABLE_AFTER_MS) {
      await disableFailingEndpoint(tx, { id: endpointId, orgId, url: ep.url }, since);
    }
  });
}

/** Failing since `since` for 3 days: disabled, its pending deliveries ended, its admins told. */
async function disableFailingEndpoint(tx: Tx, ep: { id: string; orgId: string; url: string }, since: Date) {
  const reason = `every delivery failed since ${since.toISOString()} (3 days)`;
  await tx.webhookEndpoint.update({ where: { id: ep.id }, data: { enabled: false, disabledReason: reason } });
  await tx.webhookDelivery.updateMany({
    where: { endpointId: ep.id, status: 'pending' },
    data: { status: 'failed', nextAttemptAt: null, lastError: 'the endpoint was disabled' },
  });
  const admins = await tx.membership.findMany({ where: { orgId: ep.orgId, role: 'admin' }, select: { userId: true } });
  for (const a of admins) {
    await notify(tx, {
      orgId: ep.orgId,
      userId: a.userId,
      kind: 'webhook.endpoint_disabled',
      title: 'A webhook endpoint was disabled',
      body: `${ep.url}: ${reason}. Fix the receiver, then enable it again in Settings → Webhooks.`,
      resourceId: ep.id,
    });
  }
  await recordAudit(tx, {
    action: 'webhook.endpoint_disable',
    targetType: 'webhook_endpoint',
    targetId: ep.id,
    orgId: ep.orgId,
    metadata: { url: ep.url, reason },
  });
  log.warn(
    { event: 'webhook_endpoint_disabled', endpoint_id: ep.id },
    'webhook endpoint disabled after 3 days failing',
  );
}

export interface WebhookWorkers {
  stop(): Promise<void>;
  /** Look for due deliveries now (tests; the NOTIFY does it in production). */
  wake(): void;
}

/**
 * Per region: claims up to WEBHOOK_CONCURRENCY deliveries at a time, claims more as each ends,
 * and looks again at every NOTIFY of a commit that enqueued some, else every WEBHOOK_POLL_MS.
 */
export function startWebhookWorkers(opts: { connectionString: string; regions: string[] }): WebhookWorkers {
  const e = env();
  const db = backgroundDb();
  let stopped = false;
  const inFlight = new Set<Promise<unknown>>();
  const pumps = new Map<string, () => void>();
  for (const region of opts.regions) {
    let busy = 0;
    let pumping = false;
    let again = false;
    const pump = async () => {
      if (stopped) return;
      if (pumping) {
        again = true;
        return;
      }
      pumping = true;
      try {
        do {
          again = false;
          const room = e.WEBHOOK_CONCURRENCY - busy;
          if (room <= 0) break;
          const claimed = await run(db, claimDueDeliveries, region, room, LEASE_SECONDS);
          for (const c of claimed) {
            busy++;
            const p = attemptDelivery(db, c)
              .catch((err: unknown) =>
                log.warn({ err: (err as Error).message, delivery_id: c.id }, 'webhook attempt not recorded'),
              )
              .finally(() => {
                busy--;
                inFlight.delete(p);
                void pump();
              });
            inFlight.add(p);
          }
          if (claimed.length === room) again = true;
        } while (again && !stopped);
      } catch (err) {
        log.warn({ err: (err as Error).message, region }, 'webhook claim failed; trying again at the next poll');
      } finally {
        pumping = false;
      }
    };
    pumps.set(region, () => void pump());
  }
  const wakeAll = () => pumps.forEach((p) => p());
  const timer = setInterval(wakeAll, e.WEBHOOK_POLL_MS);
  const listener = listen(opts.connectionString, WEBHOOK_CHANNEL, (region) => pumps.get(region)?.(), {
    onListening: wakeAll,
  });
  wakeAll();
  log.info({ regions: opts.regions }, 'webhook workers started');
  return {
    wake: wakeAll,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await listener.stop();
      await Promise.allSettled([...inFlight]);
    },
  };
}
