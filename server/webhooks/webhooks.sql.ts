// Hand-written SQL of webhooks: the organization's serving region read FOR SHARE (events.ts), and
// the claim of a region's due deliveries (delivery.ts).
import { command, statement } from '../db/sql';

/** What homeRegionOf needs of an organization, its row held FOR SHARE to the end of the transaction. */
export const orgForShare = statement<
  { homeRegion: string | null; defaultRegion: string | null; allowedRegions: string[] },
  [orgId: string]
>(
  'webhooks.org_for_share',
  `SELECT o.home_region, o.default_region,
          ARRAY(SELECT r.region FROM organization_regions r WHERE r.org_id = o.id ORDER BY r.region) AS allowed
     FROM organizations o WHERE o.id = $1::text FOR SHARE OF o`,
  (r) => ({
    homeRegion: (r.home_region as string | null) ?? null,
    defaultRegion: (r.default_region as string | null) ?? null,
    allowedRegions: (r.allowed as string[] | null) ?? [],
  }),
);

export interface ClaimedDelivery {
  id: string;
  eventId: string;
  endpointId: string;
  attempts: number;
}

/**
 * Claims up to $2 due pending deliveries of region $1: each attempt is counted and the delivery
 * leased for $3 seconds (its next_attempt_at moves past the attempt's deadline), so another worker
 * takes it only if this one dies mid-attempt: at least once, with the same webhook-id.
 */
export const claimDueDeliveries = statement<ClaimedDelivery, [region: string, limit: number, leaseSeconds: number]>(
  'webhooks.claim_due_deliveries',
  `WITH due AS (
     SELECT id FROM webhook_deliveries
      WHERE region = $1::text AND status = 'pending' AND next_attempt_at <= now()
      ORDER BY next_attempt_at
      LIMIT $2::int
      FOR UPDATE SKIP LOCKED
   )
   UPDATE webhook_deliveries d
      SET attempts = d.attempts + 1, last_attempt_at = now(),
          next_attempt_at = now() + $3::int * interval '1 second'
     FROM due WHERE d.id = due.id
   RETURNING d.id, d.event_id, d.endpoint_id, d.attempts`,
  (r) => ({
    id: r.id as string,
    eventId: r.event_id as string,
    endpointId: r.endpoint_id as string,
    attempts: Number(r.attempts),
  }),
);

/**
 * Deletes events older than $1 days with no delivery still pending (their deliveries go with them):
 * the delivery log shows a month; the retry schedule ends after a day.
 */
export const deleteOldWebhookEvents = command<[retentionDays: number]>(
  'webhooks.delete_old_events',
  `DELETE FROM webhook_events e
    WHERE e.created_at < now() - $1::int * interval '1 day'
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')`,
);
