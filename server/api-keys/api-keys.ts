// Managing an organization's API keys: list, create (the secret is shown once, in the create
// response), revoke. Authenticating with a key is authenticate.ts; the key format is format.ts.
import { idempotentWrite, read, write } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { createApiKey, listApiKeys, revokeApiKey } from './repository';

export async function apiKeysOf(req: DataRequest, orgId: string) {
  return { data: await read(req, (db) => listApiKeys(db, orgId)), next_cursor: null };
}

/** A key for `region` (resolved by the cascade, so already one of the organization's). */
export function createApiKeyIn(
  req: DataRequest,
  admin: { orgId: string; userId: string },
  input: { name: string; region: string },
) {
  return idempotentWrite(req, { op: 'api-keys.create', name: input.name, region: input.region }, async (tx) => ({
    status: 201,
    body: await createApiKey(tx, admin.orgId, { ...input, createdById: admin.userId }),
  }));
}

export async function revokeApiKeyOf(req: DataRequest, orgId: string, id: string) {
  const revoked = await write(req, (tx) => revokeApiKey(tx, orgId, id));
  if (!revoked) throw new AppError('not_found', `no API key ${id}`);
  return revoked;
}
