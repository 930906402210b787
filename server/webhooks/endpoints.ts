// Managing an organization's webhook endpoints (admins): create (the signing secret is shown once),
// change, delete, rotate the secret with an overlap. Their deliveries are deliveries.ts; sending
// them is delivery.ts.
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import { read, write, type Tx } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { env } from '../env';
import { AppError } from '../errors';
import { newId } from '../ids';
import { WEBHOOK_EVENT_TYPES } from './events';
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

export interface Admin {
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
    await auditEndpoint(tx, req, admin, 'webhook.endpoint_create', id, {
      url: input.url,
      event_types: input.event_types,
    });
    return { ...toEndpointView(row), secret };
  });
}

export async function ownEndpoint(tx: Tx, orgId: string, id: string) {
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
    await auditEndpoint(tx, req, admin, 'webhook.endpoint_update', id, { ...input });
    return toEndpointView(row);
  });
}

export function deleteEndpoint(req: DataRequest, admin: Admin, id: string) {
  return write(req, async (tx) => {
    const row = await ownEndpoint(tx, admin.orgId, id);
    await tx.webhookEndpoint.delete({ where: { id } });
    await auditEndpoint(tx, req, admin, 'webhook.endpoint_delete', id, { url: row.url });
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
    await auditEndpoint(tx, req, admin, 'webhook.secret_rotate', id, { overlap_hours: overlapHours });
    return { ...toEndpointView(updated), secret };
  });
}

/** An audit event of an admin's change to an endpoint (or its deliveries). */
export async function auditEndpoint(
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
