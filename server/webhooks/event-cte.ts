// A webhook event written by the very statement that makes its change (one round trip): CTEs that
// put the event and one delivery per endpoint that wants it into the outbox, as emitWebhook
// (events.ts) does inside a transaction. docs/flows/webhooks.md#the-outbox
import { homeRegionOf } from '../cell/workspaces';
import type { CommitHint } from '../db/write-positions';
import { ID_BODY_LENGTH, newId } from '../ids';
import { regionRegistry } from '../region/registry';
import { WEBHOOK_CHANNEL, type WebhookEventType, type WebhookPayload } from './events';

/**
 * `hook_*` CTEs writing `type` when the CTE `source` returned a row. `org` names a CTE that holds
 * the organization's row FOR SHARE with its `id`, `home_region` and `default_region` (the region
 * that delivers is computed as homeRegionOf does, so a move's handover orders with it as with
 * emitWebhook). Parameters from `$first`: the event's ID, its payload and the registry's region
 * order (webhookEventParams). A delivery's ID is derived from its event's and endpoint's (hex, a
 * well-formed `whd_` ID): however many endpoints there are, each gets one. `data`, a jsonb
 * expression (e.g. a scalar subquery over the changed row), replaces the payload's `data` when only
 * the statement knows the resource (a delete that reads the row it marks).
 */
export function webhookEventCtes(
  type: WebhookEventType,
  source: string,
  org: string,
  first: number,
  data?: string,
): string {
  const [id, param, order] = [first, first + 1, first + 2].map((n) => `$${n}`);
  const payload = data ? `jsonb_set(${param}::jsonb, '{data}', ${data})` : `${param}::jsonb`;
  return `hook_endpoints AS (
    SELECT e.id FROM webhook_endpoints e, ${org} o
    WHERE e.org_id = o.id AND e.enabled AND '${type}' = ANY(e.event_types) AND EXISTS (SELECT 1 FROM ${source})
  ), hook_region AS (
    SELECT COALESCE(o.home_region, o.default_region,
             (SELECT r.region FROM organization_regions r
                JOIN unnest(${order}::text[]) WITH ORDINALITY AS x(code, ord) ON x.code = r.region
               WHERE r.org_id = o.id ORDER BY x.ord LIMIT 1),
             (SELECT r.region FROM organization_regions r WHERE r.org_id = o.id ORDER BY r.region LIMIT 1)) AS region,
           o.id AS org_id
      FROM ${org} o WHERE EXISTS (SELECT 1 FROM hook_endpoints)
  ), hook_event AS (
    INSERT INTO webhook_events (id, org_id, type, region, payload, created_at)
    SELECT ${id}::text, h.org_id, '${type}', h.region, ${payload}, (${param}::jsonb->>'timestamp')::timestamptz
      FROM hook_region h WHERE h.region IS NOT NULL
    RETURNING id, org_id, region, created_at
  ), hook_deliveries AS (
    INSERT INTO webhook_deliveries (id, event_id, endpoint_id, org_id, region, next_attempt_at, created_at)
    SELECT 'whd_' || substr(md5(ev.id || ' ' || h.id), 1, ${ID_BODY_LENGTH}), ev.id, h.id, ev.org_id, ev.region,
           ev.created_at, ev.created_at
      FROM hook_event ev, hook_endpoints h
    RETURNING 1
  )`;
}

/** The parameters webhookEventCtes reads: the event (its `data`, the resource as the API answers it). */
export function webhookEventParams(type: WebhookEventType, data: unknown, at: Date, registryOrder: string[]) {
  const id = newId('msg');
  const payload: WebhookPayload = { id, type, timestamp: at.toISOString(), data };
  return { id, values: [id, JSON.stringify(payload), registryOrder] as const };
}

/**
 * An event for webhookEventCtes (its parameters, in `values`) and the hint that wakes the
 * delivering region's webhook workers at commit if the statement wrote the event. `data` is the
 * resource as the API answers it (null: the statement's own `data` expression supplies it).
 */
export async function webhookEventFor(
  type: WebhookEventType,
  data: unknown,
  at: Date,
  org: Parameters<typeof homeRegionOf>[0],
): Promise<{ values: ReturnType<typeof webhookEventParams>['values']; hint: CommitHint | undefined }> {
  const order = (await regionRegistry()).all().map((r) => r.code);
  const event = webhookEventParams(type, data, at, order);
  const region = homeRegionOf(org, order);
  return {
    values: event.values,
    hint: region ? { channel: WEBHOOK_CHANNEL, payload: region, ifExists: event.id } : undefined,
  };
}
