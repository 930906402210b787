// The routing policy store's SQL: the store's row (epoch, last sequence) and the immutable
// versions of every organization's policy (org_id NULL: the platform default's).
import { command, statement, type RawRow } from '../db/sql';
import { type PublishedPolicy } from './policy';
import { policyContentSchema } from './policy-content';

/** The channel a publish or takeover NOTIFYs at commit (payload: `<version> <org ID|default|*>`). */
export const POLICY_CHANNEL = 'meridian_policy';
/** The NOTIFY payload's target after a takeover: every policy. */
export const ALL_POLICIES = '*';

export interface StoredPolicy extends PublishedPolicy {
  reason: string | null;
}

/** A stored row as a published policy. The content was validated at publish: parse, don't trust. */
export function toPolicy(r: RawRow): StoredPolicy {
  return {
    orgId: r.org_id as string | null,
    version: { epoch: Number(r.epoch), sequence: Number(r.sequence) },
    content: policyContentSchema.parse(r.content),
    publishedAt: r.published_at as Date,
    publishedBy: r.published_by as string | null,
    rollbackOf:
      r.rollback_of_epoch !== null && r.rollback_of_sequence !== null
        ? { epoch: Number(r.rollback_of_epoch), sequence: Number(r.rollback_of_sequence) }
        : null,
    reason: r.reason as string | null,
  };
}

const COLUMNS = `epoch, sequence, org_id, content, published_at, published_by,
  rollback_of_epoch, rollback_of_sequence, reason`;

/** The store's epoch and last sequence, beside a version (null: none). */
export interface WithStore<T> {
  epoch: number;
  sequence: number;
  row: T;
}

function withStore(r: RawRow): WithStore<StoredPolicy | null> {
  return {
    epoch: Number(r.store_epoch),
    sequence: Number(r.store_sequence),
    row: r.epoch !== null ? toPolicy(r) : null,
  };
}

/** Every organization's current version and the platform default's (one row, null, when none). */
export const currentVersions = statement<WithStore<StoredPolicy | null>, []>(
  'routing.current_versions',
  `SELECT s.epoch AS store_epoch, s.sequence AS store_sequence, p.*
   FROM routing_policy_store s
   LEFT JOIN LATERAL (
     SELECT DISTINCT ON (org_id) ${COLUMNS} FROM routing_policies
     ORDER BY org_id, epoch DESC, sequence DESC) p ON TRUE
   WHERE s.id = 1`,
  withStore,
);

/** One organization's current version. */
export const currentVersionOfOrg = statement<WithStore<StoredPolicy | null>, [orgId: string]>(
  'routing.current_version_of_org',
  `SELECT s.epoch AS store_epoch, s.sequence AS store_sequence, p.*
   FROM routing_policy_store s
   LEFT JOIN LATERAL (
     SELECT ${COLUMNS} FROM routing_policies WHERE org_id = $1::text
     ORDER BY epoch DESC, sequence DESC LIMIT 1) p ON TRUE
   WHERE s.id = 1`,
  withStore,
);

/** The platform default's current version. */
export const currentDefaultVersion = statement<WithStore<StoredPolicy | null>, []>(
  'routing.current_default_version',
  `SELECT s.epoch AS store_epoch, s.sequence AS store_sequence, p.*
   FROM routing_policy_store s
   LEFT JOIN LATERAL (
     SELECT ${COLUMNS} FROM routing_policies WHERE org_id IS NULL
     ORDER BY epoch DESC, sequence DESC LIMIT 1) p ON TRUE
   WHERE s.id = 1`,
  withStore,
);

/** An organization's versions, newest first, before (epoch, sequence) when given. */
export const versionsOfOrg = statement<
  StoredPolicy,
  [orgId: string, beforeEpoch: number | null, beforeSequence: number | null, limit: number]
>(
  'routing.versions_of_org',
  `SELECT ${COLUMNS} FROM routing_policies
   WHERE org_id = $1::text AND ($2::int IS NULL OR (epoch, sequence) < ($2::int, $3::bigint))
   ORDER BY epoch DESC, sequence DESC
   LIMIT $4::int`,
  toPolicy,
);

/** The platform default's versions, newest first, before (epoch, sequence) when given. */
export const defaultVersions = statement<
  StoredPolicy,
  [beforeEpoch: number | null, beforeSequence: number | null, limit: number]
>(
  'routing.default_versions',
  `SELECT ${COLUMNS} FROM routing_policies
   WHERE org_id IS NULL AND ($1::int IS NULL OR (epoch, sequence) < ($1::int, $2::bigint))
   ORDER BY epoch DESC, sequence DESC
   LIMIT $3::int`,
  toPolicy,
);

/** One version's content, as stored (a rollback validates it again, as any new content). */
export const versionContentOfOrg = statement<{ content: unknown }, [epoch: number, sequence: number, orgId: string]>(
  'routing.version_content_of_org',
  'SELECT content FROM routing_policies WHERE epoch = $1::int AND sequence = $2::bigint AND org_id = $3::text',
  (r) => ({ content: r.content }),
);

/** One version's content of the platform default's policy, as stored. */
export const defaultVersionContent = statement<{ content: unknown }, [epoch: number, sequence: number]>(
  'routing.default_version_content',
  'SELECT content FROM routing_policies WHERE epoch = $1::int AND sequence = $2::bigint AND org_id IS NULL',
  (r) => ({ content: r.content }),
);

/** The regions in the registry's order (the mothership first), for the policy rules. */
export const regionOrder = statement<{ code: string; status: string }, []>(
  'routing.region_order',
  'SELECT code, status::text AS status FROM regions ORDER BY is_primary DESC, code',
  (r) => ({ code: r.code as string, status: r.status as string }),
);

/** The store's row, locked: publishes and takeovers are serialized on it. */
export const lockStore = statement<{ epoch: number; sequence: number }, []>(
  'routing.lock_store',
  'SELECT epoch, sequence FROM routing_policy_store WHERE id = 1 FOR UPDATE',
  (r) => ({ epoch: Number(r.epoch), sequence: Number(r.sequence) }),
);

export interface LockedOrgRow {
  id: string;
  slug: string;
  default_region: string | null;
  home_region: string | null;
}

/** The organization's row, locked against a concurrent change of its regions. */
export const lockOrg = statement<LockedOrgRow, [orgId: string]>(
  'routing.lock_org',
  'SELECT id, slug, default_region, home_region FROM organizations WHERE id = $1::text FOR NO KEY UPDATE',
  (r) => ({
    id: r.id as string,
    slug: r.slug as string,
    default_region: r.default_region as string | null,
    home_region: r.home_region as string | null,
  }),
);

export const setStoreSequence = command<[sequence: number]>(
  'routing.set_store_sequence',
  'UPDATE routing_policy_store SET sequence = $1::bigint WHERE id = 1',
);

export const insertVersion = statement<
  StoredPolicy,
  [
    epoch: number,
    sequence: number,
    orgId: string | null,
    content: string,
    publishedBy: string | null,
    rollbackOfEpoch: number | null,
    rollbackOfSequence: number | null,
    reason: string | null,
  ]
>(
  'routing.insert_version',
  `INSERT INTO routing_policies (epoch, sequence, org_id, content, published_by, rollback_of_epoch,
                                 rollback_of_sequence, reason)
   VALUES ($1::int, $2::bigint, $3::text, $4::jsonb, $5::text, $6::int, $7::bigint, $8::text)
   RETURNING ${COLUMNS}`,
  toPolicy,
);

/** A new epoch, the sequence starting over. */
export const takeOverStore = command<[epoch: number, actorId: string]>(
  'routing.take_over_store',
  `UPDATE routing_policy_store SET epoch = $1::int, sequence = 0, taken_over_at = now(), taken_over_by = $2::text
   WHERE id = 1`,
);

/** Tells every gateway (at commit, never for a rolled-back change) what changed. */
export const notifyPolicyChange = command<[payload: string]>(
  'routing.notify_policy_change',
  `SELECT pg_notify('${POLICY_CHANNEL}', $1::text)`,
);
