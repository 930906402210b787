// Managing an organization's API keys: list, create (the secret is shown once, in the create
// response), revoke. Authenticating with a key is authenticate.ts; the key format is format.ts.
import { read, write } from '../db/access';
import { recordAudit } from '../audit/audit';
import { changed as identityChanged } from '../auth/identity-cache';
import { decodeTimeCursor } from '../db/cursor';
import { idempotentWrite } from '../db/idempotency';
import { runOne } from '../db/sql';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import type { Tx } from '../db/access';
import { emitWebhook } from '../webhooks/events';
import { orgHomeRegionForShare } from './api-keys.sql';
import { redactedApiKey, type ApiKeyScope } from './format';
import { activeApiKeysLocked, createApiKey, listApiKeys, revokeApiKey } from './repository';

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

/**
 * A workspace that moved away from `region` (server/moves) no longer lives there: its keys of that
 * region answer 421 naming the new home, so a new one must not be valid there either. The
 * organization's row is read FOR SHARE: a handover's switch (which marks the region's keys moved)
 * either committed before this read or waits for this key and then marks it too.
 */
async function assertRegionNotLeft(tx: Tx, orgId: string, region: string): Promise<void> {
  const home = (await runOne(tx, orgHomeRegionForShare, orgId))?.homeRegion;
  if (!home || home === region) return;
  const left = await tx.workspaceMove.findFirst({
    where: { orgId, fromRegion: region, handoverAt: { not: null } },
    select: { id: true },
  });
  if (!left) return;
  throw new AppError(
    'region_not_allowed',
    `this workspace moved from ${region} to ${home}: create its keys for ${home} (the keys of ${region} are refused there)`,
    { extra: { region: home, details: [{ path: ['region'], message: `the workspace no longer lives in ${region}` }] } },
  );
}

/**
 * A key for `region` (resolved by the cascade, so already one of the organization's), or, with
 * `region` null, an organization-wide key (`mk_global_…`). The secret is in this response only:
 * an idempotent replay of it shows the key redacted.
 */
export async function createApiKeyIn(
  req: DataRequest,
  admin: { orgId: string; userId: string },
  input: { name: string; region: string | null; scopes: ApiKeyScope[] },
) {
  const created = await idempotentWrite(
    req,
    { op: 'api-keys.create', name: input.name, region: input.region, scopes: input.scopes },
    async (tx) => {
      const active = await activeApiKeysLocked(tx, admin.orgId);
      if (active >= MAX_ACTIVE_API_KEYS) {
        throw new AppError(
          'limit_exceeded',
          `this organization has ${active} active API keys, the most it may hold: revoke keys it no longer uses (DELETE /v1/api-keys/{id}), then create this one`,
          { extra: { limit: MAX_ACTIVE_API_KEYS } },
        );
      }
      if (input.region) await assertRegionNotLeft(tx, admin.orgId, input.region);
      const body = await createApiKey(tx, admin.orgId, { ...input, createdById: admin.userId });
      await recordAudit(tx, {
        action: 'api_key.create',
        targetType: 'api_key',
        targetId: body.id,
        orgId: admin.orgId,
        actorId: admin.userId,
        region: input.region,
        requestId: req.requestId,
        metadata: {
          name: body.name,
          prefix: body.prefix,
          scopes: body.scopes,
          ...(input.region ? {} : { global: true }),
        },
      });
      await emitWebhook(tx, admin.orgId, 'api_key.created', { ...body, key: redactedApiKey(body.key) });
      return { status: 201, body };
    },
    { redactForReplay: (body) => ({ ...body, key: redactedApiKey(body.key) }) },
  );
  // Its first use may come to this process before the key's NOTIFY does (the caller holds the
  // secret now): pinned, the key is read where it surely is, not missed on a replica behind.
  identityChanged([`key:${created.prefix}`], { lsn: req.consistency.newBookmark });
  return created;
}

export async function revokeApiKeyOf(req: DataRequest, admin: { orgId: string; userId: string }, id: string) {
  const revoked = await write(req, async (tx) => {
    const key = await revokeApiKey(tx, admin.orgId, id);
    if (key) {
      await recordAudit(tx, {
        action: 'api_key.revoke',
        targetType: 'api_key',
        targetId: key.id,
        orgId: admin.orgId,
        actorId: admin.userId,
        region: key.region,
        requestId: req.requestId,
        metadata: { name: key.name, prefix: key.prefix },
      });
      await emitWebhook(tx, admin.orgId, 'api_key.revoked', key);
    }
    return key;
  });
  if (!revoked) throw new AppError('not_found', `no API key ${id}`);
  identityChanged([`key:${revoked.prefix}`]);
  return revoked;
}
