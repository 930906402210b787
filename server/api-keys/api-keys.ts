// Managing an organization's API keys: list, create (the secret is shown once, in the create
// response), revoke. Authenticating with a key is authenticate.ts; the key format is format.ts.
import { auditParam } from '../audit/audit-cte';
import { changed as identityChanged } from '../auth/identity-cache';
import { read, writeStatement } from '../db/access';
import { decodeTimeCursor } from '../db/cursor';
import { refusedAtLimit } from '../db/errors';
import { IDEMPOTENCY_TTL_HOURS, idempotentStatement } from '../db/idempotency';
import { replayOf } from '../db/idempotency-cte';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { newId } from '../ids';
import type { OrgContext } from '../organizations/context';
import { webhookEventFor } from '../webhooks/event-cte';
import { createApiKeyStatement, revokeApiKeyStatement } from './api-keys.sql';
import { mintApiKey, redactedApiKey, type ApiKeyScope } from './format';
import { listApiKeys, view, type CreatedApiKeyView } from './repository';

/**
 * Keys an organization may hold unrevoked at once: enough for every script and region, and a
 * bound on what one admin (or a stolen admin session) can mint and every list must carry.
 */
export const MAX_ACTIVE_API_KEYS = 100;

/** A page of the organization's keys, newest first (`cursor`: a `next_cursor` this API returned). */
export async function apiKeysOf(req: DataRequest, orgId: string, page: { limit: number; cursor?: string }) {
  const after = page.cursor !== undefined ? decodeTimeCursor(page.cursor, 'key') : undefined;
  if (page.cursor !== undefined && !after) {
    throw new AppError('invalid_request', 'cursor: not one this API returned; start again without it');
  }
  return read(req, (db) => listApiKeys(db, orgId, { limit: page.limit, after }));
}

/** The organization's row changed while a create waited for it (see createApiKeyStatement). */
class OrgChanged extends Error {}
const CREATE_ATTEMPTS = 3;
/** The SQLSTATE of the `api_keys_cap` trigger (DETAIL: the keys the organization holds). */
const KEYS_CAP_STATE = 'MLIM1';

/**
 * A key for `region` (resolved by the cascade, so already one of the organization's), or, with
 * `region` null, an organization-wide key (`mk_global_…`). The secret is in this response only:
 * an idempotent replay of it shows the key redacted. One statement, sent with the bookmark: one
 * round trip (docs/flows/reads-and-writes.md); a second only when a move's handover raced it.
 */
export async function createApiKeyIn(
  req: DataRequest,
  admin: { org: OrgContext; userId: string },
  input: { name: string; region: string | null; scopes: ApiKeyScope[] },
) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createOnce(req, admin, input);
    } catch (e) {
      if (!(e instanceof OrgChanged)) throw e;
      if (attempt >= CREATE_ATTEMPTS) {
        throw new AppError('conflict', 'the organization changed while the key was being created: try again', {
          cause: e,
        });
      }
    }
  }
}

async function createOnce(
  req: DataRequest,
  admin: { org: OrgContext; userId: string },
  input: { name: string; region: string | null; scopes: ApiKeyScope[] },
) {
  const minted = mintApiKey(input.region);
  const createdAt = new Date();
  const row = { ...input, id: newId('key'), prefix: minted.prefix, createdAt, lastUsedAt: null, revokedAt: null };
  const body: CreatedApiKeyView = { ...view(row), key: minted.key };
  const redacted = { ...body, key: redactedApiKey(body.key) };
  const { values: event, hint } = await webhookEventFor('api_key.created', redacted, createdAt, admin.org);
  const created = await idempotentStatement<CreatedApiKeyView>(
    req,
    { op: 'api-keys.create', name: input.name, region: input.region, scopes: input.scopes },
    async (send, record) => {
      const [r] = await refusedAtCap(() =>
        send(
          createApiKeyStatement,
          admin.org.id,
          row.id,
          admin.userId,
          input.name,
          input.region,
          minted.prefix,
          minted.secretHash,
          body.scopes,
          createdAt,
          record?.key ?? null,
          record?.requestHash ?? null,
          record ? JSON.stringify(redacted) : null,
          IDEMPOTENCY_TTL_HOURS,
          auditParam({
            action: 'api_key.create',
            targetType: 'api_key',
            orgId: admin.org.id,
            actorId: admin.userId,
            region: input.region,
            requestId: req.requestId,
            metadata: {
              name: body.name,
              prefix: body.prefix,
              scopes: body.scopes,
              ...(input.region ? {} : { global: true }),
            },
          }),
          ...event,
        ),
      );
      if (!r) throw new Error('API key create returned no row');
      if (r.prior) return replayOf<CreatedApiKeyView>(r.prior);
      if (r.created) return { status: 201, body };
      if (r.movedTo) throw regionLeft(input.region!, r.movedTo);
      if (r.raced) throw new OrgChanged();
      throw new AppError('not_found', 'no such organization');
    },
    { hint },
  );
  // Its first use may come to this process before the key's NOTIFY does (the caller holds the
  // secret now): pinned, the key is read where it surely is, not missed on a replica behind.
  identityChanged([`key:${created.prefix}`], { lsn: req.consistency.newBookmark });
  return created;
}

/**
 * A workspace that moved away from `region` (server/moves) no longer lives there: its keys of that
 * region answer 421 naming the new home, so a new one must not be valid there either.
 */
function regionLeft(region: string, home: string) {
  return new AppError(
    'region_not_allowed',
    `this workspace moved from ${region} to ${home}: create its keys for ${home} (the keys of ${region} are refused there)`,
    { extra: { region: home, details: [{ path: ['region'], message: `the workspace no longer lives in ${region}` }] } },
  );
}

/** The create's statement, its refusal at the cap answered as 409 limit_exceeded. */
function refusedAtCap<T>(send: () => Promise<T>): Promise<T> {
  return refusedAtLimit(
    KEYS_CAP_STATE,
    MAX_ACTIVE_API_KEYS,
    (count) =>
      `this organization has ${count} active API keys, the most it may hold: revoke keys it no longer uses (DELETE /v1/api-keys/{id}), then create this one`,
    send,
  );
}

export async function revokeApiKeyOf(req: DataRequest, admin: { org: OrgContext; userId: string }, id: string) {
  const at = new Date();
  // The payload's data is the key as the statement revoked it.
  const { values: event, hint } = await webhookEventFor('api_key.revoked', null, at, admin.org);
  // One statement, sent with the bookmark: one round trip (docs/flows/reads-and-writes.md).
  const [r] = await writeStatement(
    req,
    (send) =>
      send(
        revokeApiKeyStatement,
        admin.org.id,
        id,
        at,
        auditParam({
          action: 'api_key.revoke',
          targetType: 'api_key',
          orgId: admin.org.id,
          actorId: admin.userId,
          requestId: req.requestId,
        }),
        ...event,
      ),
    { hint },
  );
  if (!r) throw new AppError('not_found', `no API key ${id}`);
  identityChanged([`key:${r.key.prefix}`]);
  return r.key;
}
