// An endpoint's deliveries, as its admins see them: the log, a redelivery, a test event.
import { z } from 'zod';
import { read, write } from '../db/access';
import { decodeTimeCursor, encodeTimeCursor } from '../db/cursor';
import type { DataRequest } from '../db/request-state';
import { execute } from '../db/sql';
import { AppError } from '../errors';
import { notifyChannel } from '../region/region.sql';
import { auditEndpoint, ownEndpoint, type Admin } from './endpoints';
import { emitWebhook, TEST_EVENT_TYPE, WEBHOOK_CHANNEL } from './events';

export const deliveryView = z.object({
  id: z.string(),
  event_id: z.string().describe('the webhook-id header: the same on every attempt'),
  event_type: z.string(),
  endpoint_id: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number(),
  last_status_code: z.number().nullable(),
  last_latency_ms: z.number().nullable(),
  last_response: z.string().nullable().describe('the first 512 bytes of the last response'),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});
export type DeliveryView = z.infer<typeof deliveryView>;

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toDeliveryView(d: {
  id: string;
  eventId: string;
  endpointId: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastLatencyMs: number | null;
  lastResponse: string | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  event: { type: string };
}): DeliveryView {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.event.type,
    endpoint_id: d.endpointId,
    status: d.status as DeliveryView['status'],
    attempts: d.attempts,
    last_status_code: d.lastStatusCode,
    last_latency_ms: d.lastLatencyMs,
    last_response: d.lastResponse,
    last_error: d.lastError,
    next_attempt_at: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    delivered_at: iso(d.deliveredAt),
    created_at: d.createdAt.toISOString(),
  };
}

/** A `webhook.test` event to this endpoint only (enabled or not it is tried: that is the test). */
export function sendTestEvent(req: DataRequest, admin: Admin, id: string) {
  return write(req, async (tx) => {
    const row = await ownEndpoint(tx, admin.orgId, id);
    if (!row.enabled) throw new AppError('conflict', `${id} is disabled: enable it, then test it`);
    const eventId = await emitWebhook(
      tx,
      admin.orgId,
      TEST_EVENT_TYPE,
      { endpoint_id: id, message: 'A test event from Meridian' },
      { onlyEndpoint: id },
    );
    if (!eventId) throw new AppError('conflict', 'this organization has no region to deliver from');
    await auditEndpoint(tx, req, admin, 'webhook.test', id, { event_id: eventId });
    const d = await tx.webhookDelivery.findFirstOrThrow({
      where: { eventId, endpointId: id },
      include: { event: true },
    });
    return toDeliveryView(d);
  });
}

export function deliveriesOf(
  req: DataRequest,
  orgId: string,
  endpointId: string,
  page: { limit: number; cursor?: string; status?: 'pending' | 'succeeded' | 'failed' },
) {
  const after = page.cursor !== undefined ? decodeTimeCursor(page.cursor, 'whd') : undefined;
  if (page.cursor !== undefined && !after) {
    throw new AppError('invalid_request', 'cursor: not one this API returned; start again without it');
  }
  return read(req, async (db) => {
    const ep = await db.webhookEndpoint.findFirst({ where: { id: endpointId, orgId }, select: { id: true } });
    if (!ep) throw new AppError('not_found', `no webhook endpoint ${endpointId}`);
    const rows = await db.webhookDelivery.findMany({
      where: {
        endpointId,
        orgId,
        ...(page.status ? { status: page.status } : {}),
        ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
      include: { event: { select: { type: true } } },
    });
    const shown = rows.slice(0, page.limit);
    const last = shown.at(-1);
    return {
      data: shown.map(toDeliveryView),
      next_cursor: rows.length > page.limit && last ? encodeTimeCursor({ at: last.createdAt, id: last.id }) : null,
    };
  });
}

/**
 * Sends a delivery again, now, with the same webhook-id (receivers deduplicate on it); a full
 * retry schedule follows if it fails. A pending one is only brought forward.
 */
export function redeliver(req: DataRequest, admin: Admin, id: string) {
  return write(req, async (tx) => {
    const d = await tx.webhookDelivery.findFirst({
      where: { id, orgId: admin.orgId },
      include: { endpoint: { select: { enabled: true } } },
    });
    if (!d) throw new AppError('not_found', `no webhook delivery ${id}`);
    if (!d.endpoint.enabled) throw new AppError('conflict', 'its endpoint is disabled: enable it, then redeliver');
    const row = await tx.webhookDelivery.update({
      where: { id },
      data:
        d.status === 'pending'
          ? { nextAttemptAt: new Date() }
          : { status: 'pending', attempts: 0, nextAttemptAt: new Date(), deliveredAt: null },
      include: { event: { select: { type: true } } },
    });
    await execute(tx, notifyChannel, WEBHOOK_CHANNEL, d.region);
    await auditEndpoint(tx, req, admin, 'webhook.redeliver', d.endpointId, { delivery_id: id, event_id: d.eventId });
    return toDeliveryView(row);
  });
}
