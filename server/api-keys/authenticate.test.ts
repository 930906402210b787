// authenticateApiKey with real minted keys and an in-memory lookup: every refusal, in the order
// the secret allows it to be said, and the identity a valid key yields. No database.
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors';
import { processSingleton } from '../process-singletons';
import { testRegistry } from '../region/registry.fixture';
import { authenticateApiKey, type ApiKeyRow } from './authenticate';
import { mintApiKey } from './format';

const REGISTRY = testRegistry(['sfo1', 'ams1']);
// The registry as a gateway holds it once loaded: no database.
processSingleton('region-registry', () => ({ current: REGISTRY }));

type Row = NonNullable<ApiKeyRow>;

/** What a test changes of the key's organization (allowed regions by code only). */
type OrgOver = Partial<Omit<Row['organization'], 'allowedRegions'>> & { allowedRegions?: { region: string }[] };

function keyOf(region: string | null, over: Partial<Row> = {}, org: OrgOver = {}) {
  const minted = mintApiKey(region);
  const row = {
    id: 'key_1',
    orgId: 'org_acme',
    createdById: null,
    name: 'ci',
    region,
    prefix: minted.prefix,
    secretHash: minted.secretHash,
    lastUsedAt: null,
    revokedAt: null,
    createdAt: new Date(0),
    scopes: ['write'],
    movedTo: null,
    ...over,
    organization: {
      id: 'org_acme',
      slug: 'acme',
      defaultRegion: 'sfo1',
      homeRegion: null,
      status: 'active',
      allowedRegions: [{ region: 'sfo1' }, { region: 'ams1' }],
      ...org,
    },
  } as unknown as Row;
  return { key: minted.key, prefix: minted.prefix, row };
}

/** `key` with the secret of another minted key: a known prefix, a wrong secret. */
function withWrongSecret(key: string): string {
  const other = mintApiKey('sfo1').key;
  return `${key.slice(0, key.lastIndexOf('_'))}_${other.slice(other.lastIndexOf('_') + 1)}`;
}

/** A lookup that knows `rows` by prefix and records what it was asked. */
function lookupOf(...rows: Row[]) {
  return vi.fn(async (prefix: string) => rows.find((r) => r.prefix === prefix) ?? null);
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe('authenticateApiKey', () => {
  it('refuses a malformed key before any lookup', async () => {
    const lookup = lookupOf();
    const e = await refusal(authenticateApiKey('mk_sfo1_short_secret', lookup));
    expect(e.status).toBe(401);
    expect(e.code).toBe('unauthenticated');
    expect(e.message).toBe('the API key is malformed: expected mk_{region}_{prefix}_{secret}');
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses an unknown prefix as not valid, spending no known-key refusal', async () => {
    const { key, prefix } = keyOf('sfo1');
    const lookup = lookupOf();
    const refusedKnown = vi.fn(async () => {});
    const e = await refusal(authenticateApiKey(key, lookup, refusedKnown));
    expect([e.status, e.code, e.message]).toEqual([401, 'unauthenticated', 'the API key is not valid']);
    expect(lookup).toHaveBeenCalledWith(prefix);
    expect(refusedKnown).not.toHaveBeenCalled();
  });

  it('refuses a known prefix with the wrong secret alike, after awaiting refusedKnown', async () => {
    const { key, row } = keyOf('sfo1');
    const forged = withWrongSecret(key);
    let spent = false;
    const refusedKnown = vi.fn(async () => {
      await Promise.resolve();
      spent = true;
    });
    const e = await refusal(authenticateApiKey(forged, lookupOf(row), refusedKnown));
    expect([e.status, e.code, e.message]).toEqual([401, 'unauthenticated', 'the API key is not valid']);
    expect(refusedKnown).toHaveBeenCalledOnce();
    expect(spent).toBe(true);
  });

  it('refuses a revoked key as not valid', async () => {
    const { key, row } = keyOf('sfo1', { revokedAt: new Date(1) });
    const refusedKnown = vi.fn(async () => {});
    const e = await refusal(authenticateApiKey(key, lookupOf(row), refusedKnown));
    expect([e.status, e.message]).toEqual([401, 'the API key is not valid']);
    expect(refusedKnown).toHaveBeenCalledOnce();
  });

  it('refuses a key presented under another region than its own', async () => {
    const { key, row } = keyOf('sfo1');
    const asAms = key.replace(/^mk_sfo1_/, 'mk_ams1_');
    const asGlobal = key.replace(/^mk_sfo1_/, 'mk_global_');
    for (const raw of [asAms, asGlobal]) {
      const refusedKnown = vi.fn(async () => {});
      const e = await refusal(authenticateApiKey(raw, lookupOf(row), refusedKnown));
      expect([e.status, e.message]).toEqual([401, 'the API key is not valid']);
      expect(refusedKnown).toHaveBeenCalledOnce();
    }
  });

  it('says the organization is suspended only once the secret verified', async () => {
    const { key, row } = keyOf('sfo1', {}, { status: 'suspended' });
    const e = await refusal(authenticateApiKey(key, lookupOf(row)));
    expect([e.status, e.code]).toEqual([403, 'organization_suspended']);

    const guessed = await refusal(authenticateApiKey(withWrongSecret(key), lookupOf(row)));
    expect([guessed.status, guessed.code]).toEqual([401, 'unauthenticated']);
  });

  it('answers 421 wrong_region naming the new home when the workspace moved', async () => {
    const { key, row } = keyOf('sfo1', { movedTo: 'ams1' });
    const e = await refusal(authenticateApiKey(key, lookupOf(row)));
    expect([e.status, e.code]).toEqual([421, 'wrong_region']);
    expect(e.message).toBe('this workspace moved to ams1: use a key of that region there');
    expect(e.extra).toEqual({ region: 'ams1', base_url: 'http://ams1.localhost:3000' });
    expect(e.headers).toEqual({ 'Cache-Control': 'no-store' });
  });

  it('names no base URL for a new home the registry does not know', async () => {
    const { key, row } = keyOf('sfo1', { movedTo: 'fra1' });
    const e = await refusal(authenticateApiKey(key, lookupOf(row)));
    expect(e.extra).toEqual({ region: 'fra1' });
  });

  it("answers 403 region_not_allowed when the key's region left the organization's set", async () => {
    const { key, row } = keyOf('sfo1', {}, { allowedRegions: [{ region: 'ams1' }], defaultRegion: null });
    const e = await refusal(authenticateApiKey(key, lookupOf(row)));
    expect([e.status, e.code]).toEqual([403, 'region_not_allowed']);
    expect(e.message).toBe('region sfo1 is no longer one of this organization’s regions (ams1)');
    expect(e.extra).toEqual({ region: 'ams1' });
  });

  it('yields the key, its region, scopes and organization', async () => {
    const { key, prefix, row } = keyOf('sfo1', { scopes: ['read'] });
    const refusedKnown = vi.fn(async () => {});
    const identity = await authenticateApiKey(key, lookupOf(row), refusedKnown);
    expect(identity).toEqual({
      kind: 'api_key',
      keyId: 'key_1',
      keyPrefix: `mk_sfo1_${prefix}`,
      region: 'sfo1',
      scopes: ['read'],
      org: {
        id: 'org_acme',
        slug: 'acme',
        defaultRegion: 'sfo1',
        allowedRegions: ['ams1', 'sfo1'],
        status: 'active',
        homeRegion: null,
      },
    });
    expect(refusedKnown).not.toHaveBeenCalled();
  });

  it('yields an organization-wide key with no region, whatever the allowed set', async () => {
    const { key, row } = keyOf(null, {}, { allowedRegions: [] });
    const identity = await authenticateApiKey(key, lookupOf(row));
    expect(identity.region).toBeNull();
    expect(identity.keyPrefix).toMatch(/^mk_global_/);
  });
});
