// API-key authentication: the key by its prefix, its secret compared in constant time; unknown and
// wrong keys fail alike, and each failure counts against the client's address (docs/security.md).
import { LRUCache } from 'lru-cache';
import { cachedLookupFrom, spendAsMiss, type LookupSource, type LookupSpec } from '../auth/identity-lookup';
import type { Db } from '../db/client';
import type { DataRequest } from '../db/request-state';
import { processSingleton } from '../process-singletons';
import { limiter, rateLimited, type LimitPolicy } from '../rate-limits/limiters';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors';
import { ORG_CONTEXT_INCLUDE, toOrgContext } from '../organizations/context';
import { assertNotSuspended } from '../organizations/suspension';
import { regionRegistry } from '../region/registry';
import { apiKeySecretMatches, GLOBAL_KEY_REGION, hashApiKeySecret, parseApiKey } from './format';
import type { Identity } from '../auth/identity';

/** Compared against when no key matches, so a miss costs what a hit costs. */
const DECOY_HASH = hashApiKeySecret('decoy-secret-that-matches-nothing');
/** A prefix no key can have (keys' are base62): looking it up is a miss's work. */
const DECOY_PREFIX = '-decoy-miss-';

export function findApiKey(db: Db, prefix: string) {
  return db.apiKey.findUnique({
    where: { prefix },
    include: { organization: { include: ORG_CONTEXT_INCLUDE } },
  });
}

export type ApiKeyRow = Awaited<ReturnType<typeof findApiKey>>;

/**
 * `lookup` finds the key row by prefix (the caller decides which database serves it);
 * `refusedKnown` is awaited before a known key is refused, to spend what an unknown one costs.
 */
export async function authenticateApiKey(
  raw: string,
  lookup: (prefix: string) => Promise<ApiKeyRow>,
  refusedKnown: () => Promise<void> = async () => {},
): Promise<Extract<Identity, { kind: 'api_key' }>> {
  const parsed = parseApiKey(raw);
  if (!parsed) {
    throw new AppError('unauthenticated', 'the API key is malformed: expected mk_{region}_{prefix}_{secret}');
  }
  const row = await lookup(parsed.prefix);
  const matches = apiKeySecretMatches(parsed.secret, row?.secretHash ?? DECOY_HASH);
  if (!row || !matches || row.revokedAt || (row.region ?? GLOBAL_KEY_REGION) !== parsed.region) {
    if (row) await refusedKnown();
    throw new AppError('unauthenticated', 'the API key is not valid');
  }
  // Said only after the secret verified, like every 403 here.
  assertNotSuspended(row.organization);
  if (row.movedTo) {
    // The workspace moved away from this key's region (server/moves): the key is valid, but at
    // the new home only. Said after the secret verified, like the 403 below.
    const target = (await regionRegistry()).get(row.movedTo);
    throw new AppError('wrong_region', `this workspace moved to ${row.movedTo}: use a key of that region there`, {
      extra: { region: row.movedTo, ...(target ? { base_url: target.baseUrl } : {}) },
      headers: { 'Cache-Control': 'no-store' },
    });
  }
  const org = toOrgContext(row.organization);
  const allowed = org.allowedRegions;
  // An organization-wide key (region null) has no region to lose: the cascade checks each request's.
  if (row.region !== null && !allowed.includes(row.region)) {
    // The key's region was taken out of the organization's allowed set (an operator's change, or
    // a move): its target region is now outside that set, the contract's 403. `region` says where
    // the organization does live. Said only now, after the secret verified: a guesser learns
    // nothing beyond what the key string itself says.
    const home = org.defaultRegion ?? allowed[0] ?? null;
    throw new AppError(
      'region_not_allowed',
      `region ${row.region} is no longer one of this organization’s regions (${allowed.join(', ') || 'none'})`,
      { extra: { region: home }, headers: { 'Cache-Control': 'no-store' } },
    );
  }
  return {
    kind: 'api_key',
    keyId: row.id,
    keyPrefix: `mk_${parsed.region}_${parsed.prefix}`,
    region: row.region,
    scopes: row.scopes,
    org,
  };
}

function keySpec(prefix: string): LookupSpec<ApiKeyRow> {
  return {
    cacheKey: `key:${prefix}`,
    subjects: [`key:${prefix}`],
    subjectsOf: (row) => [`org:${row!.orgId}`],
    load: (db) => findApiKey(db, prefix),
    recheckMissOnPrimary: true,
  };
}

export const APIKEY_FAILURES: LimitPolicy = { name: 'apikey_fail_ip', points: 60, duration: 60 };
const TOO_MANY = 'too many requests with invalid API keys from your address: try again later';

/** Addresses refused recently, so a blocked guesser costs no lookup (per process; the count is shared). */
const blocked = () =>
  processSingleton('api-key-blocks', () => new LRUCache<string, RateLimiterRes>({ max: 10_000, ttl: 60_000 }));

/**
 * Authenticates `raw` for a request from `address`: the key by its prefix from the identity cache,
 * else the gateway's replica (the primary only when the replica may lack a new key). Unknown and
 * wrong keys fail identically (same work, same error: a known key refused from the cache then
 * spends a decoy miss), and each failure counts against the address: past APIKEY_FAILURES a
 * minute it gets 429.
 */
export async function authenticateApiKeyFor(req: DataRequest, raw: string, address: string) {
  // Behind a server that doesn't record the peer every caller is `unknown`: limiting that one
  // bucket would let one guesser lock every client out, so it is not limited.
  const limited = address !== 'unknown';
  const refused = limited ? blocked().get(address) : undefined;
  if (refused && refused.msBeforeNext > 0) throw rateLimited(APIKEY_FAILURES, refused, TOO_MANY);
  let from: LookupSource = 'cache';
  try {
    return await authenticateApiKey(
      raw,
      async (prefix) => {
        const r = await cachedLookupFrom(req, keySpec(prefix));
        from = r.from;
        return r.value;
      },
      () => spendAsMiss(req, keySpec(DECOY_PREFIX), from),
    );
  } catch (e) {
    if (limited && e instanceof AppError && e.code === 'unauthenticated') {
      try {
        await limiter(APIKEY_FAILURES).consume(address);
      } catch (res) {
        if (res instanceof RateLimiterRes) {
          blocked().set(address, res, { ttl: Math.max(1, res.msBeforeNext) });
          throw rateLimited(APIKEY_FAILURES, res, TOO_MANY);
        }
      }
    }
    throw e;
  }
}
