// Hand-written SQL of API keys: the create and the revoke, each one statement with its events
// (api-keys.ts); the batched write of their last use, and the sweep of long-revoked keys.
import { auditCte } from '../audit/audit-cte';
import { keepRecordCte, priorRecordCte, type PriorRow } from '../db/idempotency-cte';
import { command, statement } from '../db/sql';
import { webhookEventCtes } from '../webhooks/event-cte';
import { apiKeyViewSql, type ApiKeyView } from './repository';

export interface CreateKeyRow {
  prior: PriorRow | null;
  /** The organization changed while the statement waited for its row: nothing written, run again. */
  raced: boolean;
  /** The workspace moved away from the key's region: its home now (nothing written). */
  movedTo: string | null;
  /** Whether the key was inserted. */
  created: boolean;
}

/**
 * Creates a key, with its Idempotency-Key record ($10 null: none), its `api_key.create` event
 * (auditParam $14) and `api_key.created` for the webhooks ($15…), or answers the fresh record under
 * the key. Refused, with nothing written, when the workspace moved away from the key's region (a
 * handover from it committed: `movedTo`); the organization's row is held FOR SHARE, so a handover
 * either committed before (and this statement's snapshot has it, unless the row changed while the
 * statement waited for it: `raced`, run again) or waits and then marks this key moved. The
 * `api_keys_cap` trigger refuses the key past the organization's cap ('MLIM1'). $1 org, $2 ID,
 * $3 creator, $4 name, $5 region (null: organization-wide), $6 prefix, $7 the secret's hash,
 * $8 scopes, $9 created at, $11 request hash, $12 the body a retry gets, $13 the TTL in hours.
 */
export const createApiKeyStatement = statement<
  CreateKeyRow,
  [
    orgId: string,
    id: string,
    createdById: string | null,
    name: string,
    region: string | null,
    prefix: string,
    secretHash: string,
    scopes: readonly string[],
    createdAt: Date,
    key: string | null,
    requestHash: string | null,
    replayBody: string | null,
    ttlHours: number,
    audit: string,
    eventId: string,
    eventPayload: string,
    regionOrder: readonly string[],
  ]
>(
  'api_keys.create',
  `WITH ${priorRecordCte({ org: 1, key: 10, ttlHours: 13 })}, seen AS (
    SELECT xmin::text AS version FROM organizations WHERE id = $1::text
  ), org AS (
    SELECT id, home_region, default_region, xmin::text AS version FROM organizations
    WHERE id = $1::text AND NOT EXISTS (SELECT 1 FROM prior)
    FOR SHARE
  ), settled AS (
    SELECT o.id, o.home_region, o.default_region FROM org o, seen s WHERE o.version = s.version
  ), moved AS (
    SELECT o.home_region FROM settled o
    WHERE $5::text IS NOT NULL AND o.home_region IS NOT NULL AND o.home_region <> $5::text
      AND EXISTS (SELECT 1 FROM workspace_moves m
                   WHERE m.org_id = o.id AND m.from_region = $5::text AND m.handover_at IS NOT NULL)
  ), created AS (
    INSERT INTO api_keys (id, org_id, created_by_id, name, region, prefix, secret_hash, scopes, created_at)
    SELECT $2::text, o.id, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text[], $9::timestamptz
      FROM settled o WHERE NOT EXISTS (SELECT 1 FROM moved)
    RETURNING id
  ), ${keepRecordCte('created', { org: 1, key: 10, hash: 11, at: 9, status: 201, body: '$12::jsonb' })},
  ${auditCte('audit', 'created', 14, 9)}, ${webhookEventCtes('api_key.created', 'created', 'settled', 15)}
  SELECT (SELECT row_to_json(p) FROM prior p) AS prior,
         EXISTS (SELECT 1 FROM org) AND NOT EXISTS (SELECT 1 FROM settled) AS raced,
         (SELECT home_region FROM moved) AS moved_to,
         EXISTS (SELECT 1 FROM created) AS created,
         (SELECT count(*) FROM record)::int AS records,
         (SELECT count(*) FROM audit)::int AS events,
         (SELECT count(*) FROM hook_event)::int AS hooks`,
  (r) => ({
    prior: (r.prior as PriorRow | null) ?? null,
    raced: r.raced === true,
    movedTo: (r.moved_to as string | null) ?? null,
    created: r.created === true,
  }),
);

export interface RevokeKeyRow {
  /** The key as the API shows it, revoked (by this statement, or before it). */
  key: ApiKeyView;
  /** Whether this statement revoked it (then with its events). */
  revoked: boolean;
}

/**
 * Revokes a key of the organization, with its `api_key.revoke` event (auditParam $4, the key's
 * name, prefix and region added from the row) and `api_key.revoked` for the webhooks ($5…, the
 * payload's data built from the row); a key revoked already is answered as it is, with no event.
 * No row when the organization has no such key. $1 org, $2 key, $3 now.
 */
export const revokeApiKeyStatement = statement<
  RevokeKeyRow,
  [
    orgId: string,
    id: string,
    at: Date,
    audit: string,
    eventId: string,
    eventPayload: string,
    regionOrder: readonly string[],
  ]
>(
  'api_keys.revoke',
  `WITH org AS (
    SELECT id, home_region, default_region FROM organizations WHERE id = $1::text FOR SHARE
  ), target AS (
    SELECT k.id, k.revoked_at, ${apiKeyViewSql('k')} AS body
      FROM api_keys k, org o WHERE k.id = $2::text AND k.org_id = o.id
    FOR UPDATE OF k
  ), revoked AS (
    UPDATE api_keys k SET revoked_at = $3::timestamptz FROM target t
    WHERE k.id = t.id AND t.revoked_at IS NULL
    RETURNING k.id, ${apiKeyViewSql('k')} AS body
  ), ${auditCte('audit', 'revoked', 4, 3, {
    metadata: `jsonb_build_object('name', revoked.body->'name', 'prefix', revoked.body->'prefix')`,
    region: `revoked.body->>'region'`,
  })}, ${webhookEventCtes('api_key.revoked', 'revoked', 'org', 5, '(SELECT body FROM revoked)')}
  SELECT COALESCE((SELECT body FROM revoked), t.body) AS key,
         EXISTS (SELECT 1 FROM revoked) AS revoked,
         (SELECT count(*) FROM audit)::int AS events,
         (SELECT count(*) FROM hook_event)::int AS hooks
    FROM target t`,
  (r) => ({ key: r.key as ApiKeyView, revoked: r.revoked === true }),
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
