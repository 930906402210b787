// Managing an organization's webhook endpoints (admins): create (the signing secret is shown once),
// change, delete, rotate the secret with an overlap, send a test event; the delivery log and a
// redelivery. Delivery itself is delivery.ts.
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import { read, write, type Tx } from '../db/access';
import { decodeTimeCursor, encodeTimeCursor } from '../db/cursor';
import { execute } from '../db/sql';
import { notifyChannel } from '../region/region.sql';
import type { DataRequest } from '../db/request-state';
import { env } from '../env';
import { AppError } from '../errors';
import { newId } from '../ids';
import { emitWebhook, TEST_EVENT_TYPE, WEBHOOK_CHANNEL, WEBHOOK_EVENT_TYPES } from './events';
import { sealSigningSecret } from './secrets';
import { newSigningSecret } from './signing';
import { endpointUrlProblem } from './target';

/** Endpoints an organization may have: enough for every integration, a bound on each event's fan-out. */
export const MAX_ENDPOINTS = 20;
/** How long a rotated-out secret goes on signing, by default and at most. */
export const DEFAULT_OVERLAP_HOURS = 24;
export const MAX_OVERLAP_HOURS = 7 * 24;

export const endpointView = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.string()),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  failing_since: z.string().nullable(),
  previous_secret_expires_at: z
    .string()
    .nullable()
    .describe('while a rotation’s overlap lasts, deliveries carry a signature by the previous secret too'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type EndpointView = z.infer<typeof endpointView>;

export const createdEndpointView = endpointView.extend({
  secret: z.string().describe('whsec_…: the signing secret, shown only in this response'),
});

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

interface EndpointRow {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toEndpointView(e: EndpointRow, now = new Date()): EndpointView {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    event_types: e.eventTypes,
    enabled: e.enabled,
    disabled_reason: e.disabledReason,
    failing_since: iso(e.failingSince),
    previous_secret_expires_at:
      e.previousSecretExpiresAt && e.previousSecretExpiresAt > now ? iso(e.previousSecretExpiresAt) : null,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

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

export const eventTypesInput = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((t) => [...new Set(t)]);

export const endpointUrlInput = z
  .string()
  .trim()
  .max(2000)
  .superRefine((url, ctx) => {
    const problem = endpointUrlProblem(url, { allowLoopback: env().WEBHOOK_ALLOW_LOOPBACK === 'on' });
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

interface Admin {
  orgId: string;
  userId: string | null;
}

export function endpointsOf(req: DataRequest, orgId: string): Promise<{ data: EndpointView[] }> {
  return read(req, async (db) => {
    const rows = await db.webhookEndpoint.findMany({
      where: { orgId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: MAX_ENDPOINTS,
    });
    return { data: rows.map((r) => toEndpointView(r)) };
  });
}

export function createEndpoint(
  req: DataRequest,
  admin: Admin,
  input: { url: string; description: string; event_types: string[] },
) {
  return write(req, async (tx) => {
    const count = await tx.webhookEndpoint.count({ where: { orgId: admin.orgId } });
    if (count >= MAX_ENDPOINTS) {
      throw new AppError(
        'limit_exceeded',
        `this organization has ${count} webhook endpoints, the most it may have: delete one it no longer uses first`,
        { extra: { limit: MAX_ENDPOINTS } },
      );
    }
    const id = newId('whk');
    const secret = newSigningSecret();
    const row = await tx.webhookEndpoint.create({
      data: {
        id,
        orgId: admin.orgId,
        url: input.url,
        description: input.description,
        eventTypes: input.event_types,
        secretSealed: sealSigningSecret(id, secret),
        createdById: admin.userId,
      },
    });
    await audit(tx, req, admin, 'webhook.endpoint_create', id, { url: input.url, event_types: input.event_types });
    return { ...toEndpointView(row), secret };
  });
}

async function ownEndpoint(tx: Tx, orgId: string, id: string) {
  const row = await tx.webhookEndpoint.findFirst({ where: { id, orgId } });
  if (!row) throw new AppError('not_found', `no webhook endpoint ${id}`);
  return row;
}

export function updateEndpoint(
  req: DataRequest,
  admin: Admin,
  id: string,
  input: { url?: string; description?: string; event_types?: string[]; enabled?: boolean },
) {
  return write(req, async (tx) => {
    const before = await ownEndpoint(tx, admin.orgId, id);
    const enabling = input.enabled === true && !before.enabled;
    const row = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.event_types !== undefined ? { eventTypes: input.event_types } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        // Enabled again by an admin: its 3 days start over, and the reason it was off is history.
        ...(enabling ? { disabledReason: null, failingSince: null } : {}),
        ...(input.enabled === false && before.enabled ? { disabledReason: 'disabled by an admin' } : {}),
      },
    });
    await audit(tx, req, admin, 'webhook.endpoint_update', id, { ...input });
    return toEndpointView(row);
  });
}

export function deleteEndpoint(req: DataRequest, admin: Admin, id: string) {
  return write(req, async (tx) => {
    const row = await ownEndpoint(tx, admin.orgId, id);
    await tx.webhookEndpoint.delete({ where: { id } });
    await audit(tx, req, admin, 'webhook.endpoint_delete', id, { url: row.url });
    return toEndpointView(row);
  });
}

/**
 * A new signing secret; the previous one goes on signing (a second signature in the same header)
 * for `overlapHours`, so receivers can switch without losing a delivery. 0: the old one stops now.
 */
export function rotateSecret(req: DataRequest, admin: Admin, id: string, overlapHours: number) {
  return write(req, async (tx) => {
    const row = await ownEndpoint(tx, admin.orgId, id);
    const secret = newSigningSecret();
    const expires = overlapHours > 0 ? new Date(Date.now() + overlapHours * 3600_000) : null;
    const updated = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        secretSealed: sealSigningSecret(id, secret),
        previousSecretSealed: expires ? row.secretSealed : null,
        previousSecretExpiresAt: expires,
      },
    });
    await audit(tx, req, admin, 'webhook.secret_rotate', id, { overlap_hours: overlapHours });
    return { ...toEndpointView(updated), secret };
  });
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
    await audit(tx, req, admin, 'webhook.test', id, { event_id: eventId });
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
    await audit(tx, req, admin, 'webhook.redeliver', d.endpointId, { delivery_id: id, event_id: d.eventId });
    return toDeliveryView(row);
  });
}

async function audit(
  tx: Tx,
  req: DataRequest,
  admin: Admin,
  action: Parameters<typeof recordAudit>[1]['action'],
  targetId: string,
  metadata: Record<string, unknown>,
) {
  await recordAudit(tx, {
    action,
    targetType: 'webhook_endpoint',
    targetId,
    orgId: admin.orgId,
    actorId: admin.userId,
    requestId: req.requestId,
    metadata,
  });
}
