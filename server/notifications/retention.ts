// Notifications are kept for a while, not forever: the workers' housekeeping prunes them by age
// and keeps each organization's newest few (docs/api.md#page-sizes-caps-and-cleanups).
import { backgroundDb } from '../db/background';
import { execute } from '../db/sql';
import { pruneNotificationsStatement } from './notifications.sql';

/** Days a notification is kept: a run's outcome is news for weeks, not for ever. */
export const NOTIFICATION_RETENTION_DAYS = 90;
/** Notifications kept per organization, newest first: what anyone pages back through, and more. */
export const MAX_NOTIFICATIONS_PER_ORG = 1000;

/** Deletes what is past either bound, in every organization not being moved; returns how many. */
export function pruneNotifications(): Promise<number> {
  return execute(backgroundDb(), pruneNotificationsStatement, NOTIFICATION_RETENTION_DAYS, MAX_NOTIFICATIONS_PER_ORG);
}
