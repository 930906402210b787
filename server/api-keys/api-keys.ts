// Managing an organization's API keys: list, create (the secret is shown once, in the create
// response), revoke. Authenticating with a key is authenticate.ts; the key format is format.ts.
import { read, write } from '../db/access';
import { recordAudit } from '../audit/audit';
import { changed as identityChanged } from '../auth/identity-cache';
import { idempotentWrite } from '../db/idempotency';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { redactedApiKey, type ApiKeyScope } from './format';
import { createApiKey, listApiKeys, revokeApiKey } from './repository';

export async function apiKeysOf(req: DataRequest, orgId: string) {
  return { data: await read(req, (db) => listApiKeys(db, orgId)), next_cursor: null };
}

/**
 * A key for `region` (resolved by the cascade, so already one of the organization's), or, with
 * `region` null, an organization-wide key (`mk_global_…`). The secret is in this response only:
 * an idempotent replay of it shows the key redacted.
 */
export function createApiKeyIn(
  req: DataRequest,
  admin: { orgId: string; userId: string },
  input: { name: string; region: string | null; scopes: ApiKeyScope[] },
) {
  return idempotentWrite(
    req,
    { op: 'api-keys.create', name: input.name, region: input.region, scopes: input.scopes },
    async (tx) => {
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
      return { status: 201, body };
    },
    { redactForReplay: (body) => ({ ...body, key: redactedApiKey(body.key) }) },
  );
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
    }
    return key;
  });
  if (!revoked) throw new AppError('not_found', `no API key ${id}`);
  identityChanged([`key:${revoked.prefix}`]);
  return revoked;
}
