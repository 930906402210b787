// Hand-written SQL of API keys: the locks that keep creation within bounds, and the batched
// write of their last use.
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
