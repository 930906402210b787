// Hand-written SQL of API keys: the locks that keep creation within bounds, the batched write of
// their last use, and the sweep of long-revoked keys.
import { command, statement } from '../db/sql';

/** The organization's home region, its row held FOR SHARE to the end of the transaction. */
export const orgHomeRegionForShare = statement<{ homeRegion: string | null }, [orgId: string]>(
  'api_keys.org_home_region_for_share',
  'SELECT home_region FROM organizations WHERE id = $1::text FOR SHARE',
  (r) => ({ homeRegion: (r.home_region as string | null) ?? null }),
);

/** Serializes key creation of one organization (held to the end of the transaction). */
export const lockKeyCreation = command<[orgId: string]>(
  'api_keys.lock_key_creation',
  `SELECT pg_advisory_xact_lock(hashtextextended('api-keys:' || $1::text, 0))`,
);

/** Moves each key's last_used_at forward to its collected use (never back). */
export const recordKeyUses = command<[ids: string[], at: Date[]]>(
  'api_keys.record_key_uses',
  `UPDATE api_keys AS k SET last_used_at = GREATEST(k.last_used_at, u.at)
     FROM unnest($1::text[], $2::timestamptz[]) AS u(id, at)
    WHERE k.id = u.id`,
);

/**
 * Deletes keys revoked more than $1 days ago, except in an organization being moved (its export
 * and verify must read the same rows); the organizations held FOR SHARE, so a move's switch to
 * read-only waits for the delete to commit.
 */
export const deleteRevokedKeys = command<[retentionDays: number]>(
  'api_keys.delete_revoked',
  `WITH live AS (
    SELECT o.id FROM organizations o
     WHERE o.status <> 'moving'
       AND o.id IN (SELECT org_id FROM api_keys WHERE revoked_at < now() - make_interval(days => $1::int))
     FOR SHARE OF o
  )
  DELETE FROM api_keys k USING live
    WHERE k.org_id = live.id AND k.revoked_at < now() - make_interval(days => $1::int)`,
);
