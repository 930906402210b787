// API-key authentication: find the key by its prefix, compare the secret's hash in constant
// time, refuse revoked keys. Unknown and wrong keys fail identically (same work, same error).
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { ORG_CONTEXT_INCLUDE, toOrgContext } from '../organizations/context';
import { apiKeySecretMatches, hashApiKeySecret, parseApiKey } from './format';
import type { Identity } from '../auth/identity';

/** Compared against when no key matches, so a miss costs what a hit costs. */
const DECOY_HASH = hashApiKeySecret('decoy-secret-that-matches-nothing');

export function findApiKey(db: Db, prefix: string) {
  return db.apiKey.findUnique({
    where: { prefix },
    include: { organization: { include: ORG_CONTEXT_INCLUDE } },
  });
}

export type ApiKeyRow = Awaited<ReturnType<typeof findApiKey>>;

/** `lookup` finds the key row by prefix (the caller decides which database serves it). */
export async function authenticateApiKey(
  raw: string,
  lookup: (prefix: string) => Promise<ApiKeyRow>,
): Promise<Extract<Identity, { kind: 'api_key' }>> {
  const parsed = parseApiKey(raw);
  if (!parsed) {
    throw new AppError('unauthenticated', 'the API key is malformed: expected mk_{region}_{prefix}_{secret}');
  }
  const row = await lookup(parsed.prefix);
  const matches = apiKeySecretMatches(parsed.secret, row?.secretHash ?? DECOY_HASH);
  if (!row || !matches || row.revokedAt || row.region !== parsed.region) {
    throw new AppError('unauthenticated', 'the API key is not valid');
  }
  const org = toOrgContext(row.organization);
  const allowed = org.allowedRegions;
  if (!allowed.includes(row.region)) {
    // The organization moved away from the key's region. Said only now, after the secret
    // verified: a guesser learns nothing beyond what the key string itself says.
    const home = org.defaultRegion ?? allowed[0] ?? null;
    throw new AppError('wrong_region', `this organization no longer lives in ${row.region}`, {
      extra: { region: home },
      headers: { 'Cache-Control': 'no-store' },
    });
  }
  return {
    kind: 'api_key',
    keyId: row.id,
    region: row.region,
    org,
  };
}
