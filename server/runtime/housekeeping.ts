// The sweeps every worker runs on a timer, so no table a customer grows keeps rows for ever
// (docs/api.md#page-sizes-caps-and-cleanups). Each is a DELETE by index, or (offboarding) a purge
// conditional on the row it deletes: harmless when several workers run it at once, so none needs
// a queue or lock of its own.
import { deleteLongRevokedApiKeys } from '../api-keys/retention';
import { deleteLongRevokedCredentials } from '../clusters/kubeconfig-retention';
import { purgeExpiredIdempotencyKeys } from '../db/idempotency';
import { pruneNotifications } from '../notifications/retention';
import { deleteExpiredSetupLinks } from '../organizations/first-admin';
import { sweepOffboarding } from '../organizations/offboarding';
import { purgeLongDeletedProjects } from '../projects/retention';
import { logger } from '../telemetry/logger';
import { deleteOldWebhookEventsNow } from '../webhooks/retention';

export const SWEEPS: Record<string, () => Promise<number>> = {
  'idempotency records': () => purgeExpiredIdempotencyKeys(),
  notifications: pruneNotifications,
  'revoked API keys': deleteLongRevokedApiKeys,
  'revoked kubeconfig credentials': deleteLongRevokedCredentials,
  'expired password setup links': deleteExpiredSetupLinks,
  'old webhook events': deleteOldWebhookEventsNow,
  'deleted projects': purgeLongDeletedProjects,
  // Counts organizations purged: their clusters' deletes are started by the same sweep.
  'offboarded organizations': () => sweepOffboarding(),
};

/** Runs every sweep once, one after another; one that fails is logged and retried next time. */
export async function sweepOnce(): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const [what, sweep] of Object.entries(SWEEPS)) {
    try {
      deleted[what] = await sweep();
      if (deleted[what] > 0) logger.info({ deleted: deleted[what], what }, 'housekeeping deleted rows');
    } catch (err) {
      logger.warn({ what, err: (err as Error).message }, 'housekeeping sweep failed; will retry');
    }
  }
  return deleted;
}
