// Webhook events into the outbox, in the transaction of the change that causes them: a change
// that rolls back leaves no event, and a change never commits without its event.
// docs/flows/webhooks.md#the-outbox
import type { Tx } from '../db/access';
import { execute, runOne } from '../db/sql';
import { newId } from '../ids';
import { homeRegionOf } from '../cell/workspaces';
import { regionRegistry } from '../region/registry';
import { notifyChannel } from '../region/region.sql';
import { orgForShare } from './webhooks.sql';

export const WEBHOOK_EVENT_TYPES = [
  'cluster.created',
  'cluster.ready',
  'cluster.failed',
  'cluster.deleted',
  'project.created',
  'project.deleted',
  'member.added',
  'member.removed',
  'api_key.created',
  'api_key.revoked',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only by an endpoint's test (POST /v1/webhooks/{id}/test), to that endpoint, whatever it subscribes to. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** NOTIFY channel (payload: a region) that wakes that region's webhook workers at commit. */
export const WEBHOOK_CHANNEL = 'meridian_webhooks';

/** The body every delivery of an event carries. */
export interface WebhookPayload {
  id: string;
  type: string;
  timestamp: string;
  data: unknown;
}

/**
 * The region serving the organization as this transaction sees it. Its row is held FOR SHARE to the
 * end of the transaction, so a move's handover (which changes home_region) either committed before
 * (the event is the new region's) or waits for this commit (the event is the old region's).
 */
async function servingRegion(tx: Tx, orgId: string): Promise<string | undefined> {
  const org = await runOne(tx, orgForShare, orgId);
  if (!org) return undefined;
  const registry = await regionRegistry();
  return homeRegionOf(
    org,
    registry.all().map((r) => r.code),
  );
}

/**
 * Enqueues `type` about `data` (the resource as the REST API returns it) for every enabled
 * endpoint of the organization that wants it, or only `onlyEndpoint`. Returns the event's ID, or
 * null when no endpoint wants it (nothing is written then).
 */
export async function emitWebhook(
  tx: Tx,
  orgId: string,
  type: WebhookEventType | typeof TEST_EVENT_TYPE,
  data: unknown,
  opts: { onlyEndpoint?: string } = {},
): Promise<string | null> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: opts.onlyEndpoint ? { id: opts.onlyEndpoint, orgId } : { orgId, enabled: true, eventTypes: { has: type } },
    select: { id: true },
  });
  if (endpoints.length === 0) return null;
  const region = await servingRegion(tx, orgId);
  if (!region) return null; // an organization with no region has no workers to deliver for it
  const id = newId('msg');
  const now = new Date();
  const payload: WebhookPayload = { id, type, timestamp: now.toISOString(), data };
  await tx.webhookEvent.create({ data: { id, orgId, type, region, payload: payload as object, createdAt: now } });
  await tx.webhookDelivery.createMany({
    data: endpoints.map((e) => ({
      id: newId('whd'),
      eventId: id,
      endpointId: e.id,
      orgId,
      region,
      nextAttemptAt: now,
      createdAt: now,
    })),
  });
  // Delivered at commit: the region's workers need not wait for their next poll.
  await execute(tx, notifyChannel, WEBHOOK_CHANNEL, region);
  return id;
}
