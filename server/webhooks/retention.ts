// Webhook events and their delivery log are kept for a while, not for ever: the workers'
// housekeeping deletes them by age (docs/api.md#page-sizes-caps-and-cleanups).
import { backgroundDb } from '../db/background';
import { execute } from '../db/sql';
import { deleteOldWebhookEvents } from './webhooks.sql';

/** Days an event and its deliveries are kept: the delivery log's reach, far past the 24 h of retries. */
export const WEBHOOK_EVENT_RETENTION_DAYS = 30;

export function deleteOldWebhookEventsNow(): Promise<number> {
  return execute(backgroundDb(), deleteOldWebhookEvents, WEBHOOK_EVENT_RETENTION_DAYS);
}
