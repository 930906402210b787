// The global directory against a real primary + replicas: cells register over real
// HTTP with signed calls, look-ups go through the real route handler (the request middleware,
// the rate limiter on PostgreSQL), and every refused signed call is shown to change nothing. A
// cell registers only an address of its own region's; decoys look like real answers over time.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { primary } from '../../server/db/client';
import { resetEnvCache } from '../../server/env';
import { trustPeerHeader } from '../../server/net/client-address';
import { resetRateLimiters } from '../../server/rate-limits/limiters';
import { metrics } from '../../server/telemetry/metrics';
import { registerWithDirectory } from '../../server/cell/registration';
import { withReservedSlug } from '../../server/cell/workspaces';
import { finishRotation, rotateCellKey } from '../../server/directory/rotation';
import { cellKey } from '../../server/directory/keys';
import { lookUpWorkspace } from '../../server/directory/workspace-lookup';
import { writeCellKey } from '../../server/cell/keys';
import {
  directoryServer,
  directorySnapshot,
  formLookupRequest,
  lookupRequest,
  provisionKeys,
  routes,
  signedRequest,
} from './harness';

let keysFile: string;
let r: Awaited<ReturnType<typeof routes>>;
let directory: Awaited<ReturnType<typeof directoryServer>>;
type Json = Record<string, unknown> & { error?: { code: string; request_id: string } };
const json = async (res: Response) => (await res.json()) as Json;
/** A cell's own entry, signed by it, at its usual address. */
const putRegion = (code: string, name: string, status: string) =>
  r.internal(
    signedRequest(code, 'PUT', `/internal/v1/regions/${code}`, {
      name,
      address: `http://${code}.localhost:3000`,
      status,
    }),
  );

beforeAll(async () => {
  await useDemoDatabase('directory');
  trustPeerHeader();
  keysFile = provisionKeys();
  r = await routes();
  directory = await directoryServer();
  process.env.MERIDIAN_DIRECTORY_URL = directory.url;
  resetEnvCache();
});

afterAll(async () => {
  await directory?.close();
});

async function refusals(reason: string): Promise<number> {
  const m = await metrics.directoryRefusals.get();
  return m.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

describe('roles and registration', () => {
  it('GET /api/v1/cell names the directory at the global address and the cell at a region', async () => {
    const global = await r.cell(
      new Request('http://localhost:3000/api/v1/cell', { headers: { host: 'localhost:3000' } }),
    );
    expect(await global.json()).toEqual({ mode: 'directory' });
    expect(global.headers.get('x-request-id')).toMatch(/^req_global-\d+-[0-9a-f]{12}$/);
    const cell = await r.cell(
      new Request('http://lax1.localhost:3000/api/v1/cell', { headers: { host: 'lax1.localhost:3000' } }),
    );
    expect(await cell.json()).toEqual({
      mode: 'cell',
      region: 'lax1',
      name: expect.any(String),
      global_url: 'http://localhost:3000',
    });
  });

  it('cells register their regions and organizations through signed HTTP calls only', async () => {
    expect(await primary().directoryWorkspace.count()).toBe(0);
    const done = await registerWithDirectory();
    expect(done.regions.sort()).toEqual(['ams1', 'lax1', 'sfo1']);
    const regions = await primary().directoryRegion.findMany({ orderBy: { code: 'asc' } });
    expect(regions.map((x) => [x.code, x.baseUrl, x.status])).toEqual([
      ['ams1', 'http://ams1.localhost:3000', 'active'],
      ['lax1', 'http://lax1.localhost:3000', 'active'],
      ['sfo1', 'http://sfo1.localhost:3000', 'active'],
    ]);
    const ws = await primary().directoryWorkspace.findMany({ orderBy: { slug: 'asc' } });
    expect(ws.map((w) => [w.slug, w.region, w.status])).toEqual([
      ['acme', 'sfo1', 'active'],
      ['globex', 'sfo1', 'active'],
    ]);
    // Idempotent: a heartbeat changes no workspace and writes no event.
    const events = await primary().directoryEvent.count();
    await registerWithDirectory();
    expect(await primary().directoryWorkspace.findMany({ orderBy: { slug: 'asc' } })).toEqual(ws);
    expect(await primary().directoryEvent.count()).toBe(events);
    // Nothing in the directory names a person.
    const all = await directorySnapshot();
    expect(all).not.toMatch(/@|usr_|Alice|Bob/);
  });
});

describe("the heartbeat's batch: POST /internal/v1/regions/{region}/workspaces", () => {
  const sync = (cell: string, region: string, workspaces: unknown) =>
    r.internal(signedRequest(cell, 'POST', `/internal/v1/regions/${region}/workspaces`, { workspaces }));

  it('reserves and activates or suspends only what differs, reports slugs held elsewhere, and is idempotent', async () => {
    await putRegion('lax1', 'Los Angeles', 'active');
    await putRegion('ams1', 'Amsterdam', 'active');
    expect((await r.internal(signedRequest('ams1', 'POST', '/internal/v1/workspaces/sync-held/reserve'))).status).toBe(
      200,
    );
    const first = await sync('lax1', 'lax1', [
      { slug: 'sync-one', status: 'active' },
      { slug: 'sync-two', status: 'suspended' },
      { slug: 'sync-held', status: 'active' },
    ]);
    expect(first.status).toBe(200);
    expect(await json(first)).toEqual({ unchanged: 0, changed: ['sync-one', 'sync-two'], taken: ['sync-held'] });
    const rows = await primary().directoryWorkspace.findMany({
      where: { slug: { in: ['sync-one', 'sync-two', 'sync-held'] } },
      orderBy: { slug: 'asc' },
    });
    expect(rows.map((w) => [w.slug, w.region, w.status])).toEqual([
      ['sync-held', 'ams1', 'reserved'],
      ['sync-one', 'lax1', 'active'],
      ['sync-two', 'lax1', 'reserved'],
    ]);
    const events = await primary().directoryEvent.count();
    const again = await json(
      await sync('lax1', 'lax1', [
        { slug: 'sync-one', status: 'active' },
        { slug: 'sync-two', status: 'suspended' },
      ]),
    );
    expect(again).toEqual({ unchanged: 2, changed: [], taken: [] });
    expect(await primary().directoryEvent.count()).toBe(events);
    // Reinstated: the next batch activates it.
    expect(await json(await sync('lax1', 'lax1', [{ slug: 'sync-two', status: 'active' }]))).toMatchObject({
      changed: ['sync-two'],
    });
    // The lists below count the demo's workspaces only.
    await primary().directoryWorkspace.deleteMany({ where: { slug: { startsWith: 'sync-' } } });
  });

  it('a cell may sync only its own region; bad batches are 400 and change nothing', async () => {
    const other = await sync('lax1', 'ams1', [{ slug: 'sneaky-one', status: 'active' }]);
    expect(other.status).toBe(403);
    const tooMany = Array.from({ length: 501 }, (_, i) => ({ slug: `many-${i}`, status: 'active' }));
    for (const bad of [
      tooMany,
      [{ slug: 'Bad_Slug', status: 'active' }],
      [{ slug: 'ok-slug', status: 'moving' }],
      'x',
    ]) {
      const res = await sync('lax1', 'lax1', bad);
      expect(res.status).toBe(400);
      expect((await json(res)).error?.code).toBe('invalid_request');
    }
    expect(
      await primary().directoryWorkspace.count({ where: { slug: { in: ['sneaky-one', 'ok-slug', 'many-0'] } } }),
    ).toBe(0);
  });
});

describe('resolve', () => {
  it('a known workspace resolves to its region, with the request ID and RateLimit headers', async () => {
    const res = await r.resolve(lookupRequest({ slug: 'globex' }, '198.51.100.10'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      region: 'sfo1',
      name: expect.any(String),
      address: 'http://sfo1.localhost:3000',
      status: 'active',
    });
    expect(res.headers.get('x-request-id')).toMatch(/^req_global-/);
    expect(res.headers.get('ratelimit-policy')).toBe('"directory_lookup";q=20;w=60');
    expect(res.headers.get('ratelimit')).toMatch(/^"directory_lookup";r=19;t=\d+$/);
  });

  it('an unknown workspace gets a stable decoy of the same shape', async () => {
    const a = await json(await r.resolve(lookupRequest({ slug: 'no-such-workspace-1' }, '198.51.100.11')));
    const b = await json(await r.resolve(lookupRequest({ slug: 'no-such-workspace-1' }, '198.51.100.12')));
    const known = await json(await r.resolve(lookupRequest({ slug: 'acme' }, '198.51.100.11')));
    expect(a).toEqual(b);
    expect(Object.keys(a).sort()).toEqual(Object.keys(known).sort());
    expect(a.status).toBe('active');
    expect(['sfo1', 'lax1', 'ams1']).toContain(a.region);
    expect(a.address).toBe(`http://${a.region}.localhost:3000`);
    // Different slugs spread over the regions (the keyed hash, not one fixed decoy).
    const seen = new Set<unknown>();
    for (let i = 0; i < 30; i++)
      seen.add((await json(await r.resolve(lookupRequest({ slug: `nobody-${i}` }, `198.51.101.${i}`)))).region);
    expect(seen.size).toBe(3);
  });

  it('malformed slugs and bodies are 400 (oversized 413), never a 500', async () => {
    for (const slug of ['a', '-abc', 'Acme', 'a_b', 'x'.repeat(64), '', 42, null]) {
      const res = await r.resolve(lookupRequest({ slug }, '198.51.100.20'));
      expect(res.status, String(slug)).toBe(400);
      expect((await json(res)).error?.code).toBe('invalid_request');
      expect(res.headers.get('ratelimit')).toMatch(/^"directory_lookup";r=\d+;t=\d+$/);
    }
    const notJson = await r.resolve(lookupRequest(null, '198.51.100.21', '{"slug":'));
    expect(notJson.status).toBe(400);
    const big = await r.resolve(
      lookupRequest(null, '198.51.100.22', JSON.stringify({ slug: 'acme', pad: 'x'.repeat(20_000) })),
    );
    expect(big.status).toBe(413);
  });

  it('a workspace whose region is down resolves with status down', async () => {
    // An ams1 organization, created the way cells create them: reserve, create, activate.
    await withReservedSlug('ams1', 'initech', async () => 'created');
    const up = await json(await r.resolve(lookupRequest({ slug: 'initech' }, '198.51.100.30')));
    expect(up).toMatchObject({ region: 'ams1', status: 'active' });
    const down = await putRegion('ams1', 'Amsterdam', 'down');
    expect(down.status).toBe(200);
    expect(await json(await r.resolve(lookupRequest({ slug: 'initech' }, '198.51.100.30')))).toMatchObject({
      region: 'ams1',
      status: 'down',
    });
    await putRegion('ams1', 'Amsterdam', 'active');
  });

  it('the form post (no JavaScript) redirects to the region sign-in and remembers the workspace', async () => {
    const res = await r.resolve(formLookupRequest('workspace=globex', '198.51.100.40'));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('http://sfo1.localhost:3000/sign-in?workspace=globex');
    expect(res.headers.get('set-cookie')).toMatch(/^meridian_workspace=globex;/);
    const bad = await r.resolve(formLookupRequest('workspace=-bad', '198.51.100.40'));
    expect(bad.status).toBe(303);
    expect(bad.headers.get('location')).toBe('/?workspace=-bad&error=invalid');
  });

  it('look-ups are only answered at the global address', async () => {
    const res = await r.resolve(lookupRequest({ slug: 'acme' }, '198.51.100.50', undefined, 'sfo1.localhost:3000'));
    expect(res.status).toBe(404);
  });
});

describe('rate limit: 20 look-ups a minute per client address, shared by every directory process', () => {
  it('the 21st is 429 with Retry-After 60 and the RateLimit headers, across two limiter instances', async () => {
    const peer = '203.0.113.77';
    const remaining: string[] = [];
    for (let i = 0; i < 20; i++) {
      // Halfway, a second "process": a new pool and limiter on the same PostgreSQL table.
      if (i === 10) await resetRateLimiters();
      const res = await r.resolve(lookupRequest({ slug: i % 2 ? 'acme' : `unknown-${i}` }, peer));
      expect(res.status, `look-up ${i + 1}`).toBe(200);
      remaining.push(res.headers.get('ratelimit')!);
    }
    expect(remaining[0]).toMatch(/r=19;/);
    expect(remaining[19]).toMatch(/r=0;/);
    const res = await r.resolve(lookupRequest({ slug: 'acme' }, peer));
    expect(res.status).toBe(429);
    expect((await json(res)).error?.code).toBe('rate_limited');
    expect(res.headers.get('retry-after')).toBe('60');
    expect(res.headers.get('ratelimit-policy')).toBe('"directory_lookup";q=20;w=60');
    expect(res.headers.get('ratelimit')).toMatch(/^"directory_lookup";r=0;t=\d+$/);
    // Another address has its own budget; a client-sent X-Forwarded-For changes nothing.
    const other = await r.resolve(lookupRequest({ slug: 'acme' }, '203.0.113.78'));
    expect(other.status).toBe(200);
    const spoof = lookupRequest({ slug: 'acme' }, peer);
    spoof.headers.set('x-forwarded-for', '192.0.2.1');
    expect((await r.resolve(spoof)).status).toBe(429);
    const stored = await primary().rateLimit.findUnique({ where: { key: `directory_lookup:${peer}` } });
    expect(stored?.points).toBeGreaterThanOrEqual(21);
  });
});

describe('signed calls', () => {
  const reserve = (slug: string) => `/internal/v1/workspaces/${slug}/reserve`;

  it('a valid call is accepted', async () => {
    const res = await r.internal(signedRequest('lax1', 'POST', reserve('hooli')));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ slug: 'hooli', region: 'lax1', status: 'reserved' });
  });

  const refused: [string, () => Request, number, string, string][] = [
    [
      'wrong key',
      () => signedRequest('lax1', 'POST', reserve('piedpiper'), undefined, { key: randomBytes(32) }),
      401,
      'invalid_signature',
      'bad_signature',
    ],
    [
      "another region's key",
      () => signedRequest('lax1', 'POST', reserve('piedpiper'), undefined, { key: cellKey('sfo1', 1) }),
      401,
      'invalid_signature',
      'bad_signature',
    ],
    [
      'tampered body',
      () =>
        signedRequest(
          'lax1',
          'PUT',
          '/internal/v1/regions/lax1',
          { name: 'Evil', address: 'http://evil.test', status: 'active' },
          { signedBody: JSON.stringify({ name: 'LA', address: 'http://lax1.localhost:3000', status: 'active' }) },
        ),
      401,
      'invalid_signature',
      'bad_signature',
    ],
    [
      'tampered path',
      () => signedRequest('lax1', 'POST', reserve('piedpiper'), undefined, { signedPath: reserve('hooli2') }),
      401,
      'invalid_signature',
      'bad_signature',
    ],
    [
      'tampered query',
      () =>
        signedRequest('lax1', 'POST', `${reserve('piedpiper')}?x=2`, undefined, {
          signedPath: `${reserve('piedpiper')}?x=1`,
        }),
      401,
      'invalid_signature',
      'bad_signature',
    ],
    [
      'stale timestamp',
      () =>
        signedRequest('lax1', 'POST', reserve('piedpiper'), undefined, {
          timestamp: Math.floor(Date.now() / 1000) - 330,
        }),
      401,
      'invalid_signature',
      'stale_timestamp',
    ],
    [
      'future timestamp',
      () =>
        signedRequest('lax1', 'POST', reserve('piedpiper'), undefined, {
          timestamp: Math.floor(Date.now() / 1000) + 330, // past the 300 s window, with room for a slow machine
        }),
      401,
      'invalid_signature',
      'future_timestamp',
    ],
    [
      'unknown key version',
      () => signedRequest('lax1', 'POST', reserve('piedpiper'), undefined, { version: 7 }),
      401,
      'invalid_signature',
      'unknown_key_version',
    ],
    [
      'missing signature headers',
      () =>
        new Request(`http://localhost:3000${reserve('piedpiper')}`, {
          method: 'POST',
          headers: { host: 'localhost:3000' },
        }),
      401,
      'invalid_signature',
      'malformed_headers',
    ],
    [
      "another region's workspace",
      () => signedRequest('ams1', 'POST', '/internal/v1/workspaces/hooli/activate'),
      403,
      'forbidden',
      'other_region',
    ],
    [
      "another region's workspace, released",
      () => signedRequest('ams1', 'DELETE', '/internal/v1/workspaces/hooli'),
      403,
      'forbidden',
      'other_region',
    ],
    [
      "another region's entry",
      () =>
        signedRequest('ams1', 'PUT', '/internal/v1/regions/lax1', {
          name: 'X',
          address: 'http://ams1.localhost:3000',
          status: 'down',
        }),
      403,
      'forbidden',
      'other_region',
    ],
  ];
  for (const [name, make, status, code, reason] of refused) {
    it(`refused, nothing changed, counted: ${name}`, async () => {
      const before = await directorySnapshot();
      const counted = await refusals(reason);
      const res = await r.internal(make());
      expect(res.status).toBe(status);
      expect((await json(res)).error?.code).toBe(code);
      expect(await directorySnapshot()).toBe(before);
      expect(await refusals(reason)).toBe(counted + 1);
    });
  }

  it('a replayed nonce is refused and changes nothing', async () => {
    const original = signedRequest('lax1', 'POST', reserve('replay-me'));
    const copy = original.clone(); // what an eavesdropper captured: every header and byte
    const first = await r.internal(original);
    expect(first.status).toBe(200);
    // The cell releases the slug; the replay would reserve it again.
    await r.internal(signedRequest('lax1', 'DELETE', '/internal/v1/workspaces/replay-me'));
    const before = await directorySnapshot();
    const counted = await refusals('replayed_nonce');
    const again = await r.internal(copy);
    expect(again.status).toBe(401);
    expect((await json(again)).error?.code).toBe('invalid_signature');
    expect(await directorySnapshot()).toBe(before);
    expect(await refusals('replayed_nonce')).toBe(counted + 1);
  });

  it('nonces are pruned once their window has passed', async () => {
    await primary().directoryNonce.create({
      data: { nonce: 'expired-nonce-0000', cell: 'lax1', expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await putRegion('lax1', 'Los Angeles', 'active');
    expect(res.status).toBe(200);
    expect(await primary().directoryNonce.findUnique({ where: { nonce: 'expired-nonce-0000' } })).toBeNull();
    const live = await primary().directoryNonce.findMany({ where: { cell: 'lax1' } });
    expect(live.every((n) => n.expiresAt.getTime() > Date.now())).toBe(true);
  });

  it('key rotation: both versions during the grace, only the new one after it ends', async () => {
    const rotation = await rotateCellKey(primary(), 'lax1', 600);
    expect(rotation.version).toBe(2);
    const put = (version: number) =>
      r.internal(
        signedRequest(
          'lax1',
          'PUT',
          '/internal/v1/regions/lax1',
          { name: 'Los Angeles', address: 'http://lax1.localhost:3000', status: 'active' },
          { version },
        ),
      );
    expect((await put(1)).status).toBe(200);
    expect((await put(2)).status).toBe(200);
    await finishRotation(primary(), 'lax1');
    const before = await directorySnapshot();
    const old = await put(1);
    expect(old.status).toBe(401);
    expect((await json(old)).error?.code).toBe('invalid_signature');
    expect(await directorySnapshot()).toBe(before);
    expect((await put(2)).status).toBe(200);
    // What the rotate command then does for the cell: its keys file gets the new version.
    writeCellKey(keysFile, 'lax1', rotation.version, rotation.key);
  });
});

describe('creating an organization reserves its slug, then activates or releases it', () => {
  it('a failed create gives the slug back; a slug taken in another region is a conflict', async () => {
    await expect(
      withReservedSlug('sfo1', 'umbrella', async () => {
        expect(await primary().directoryWorkspace.findUnique({ where: { slug: 'umbrella' } })).toMatchObject({
          status: 'reserved',
          region: 'sfo1',
        });
        throw new Error('the insert failed');
      }),
    ).rejects.toThrow('the insert failed');
    expect(await primary().directoryWorkspace.findUnique({ where: { slug: 'umbrella' } })).toBeNull();
    await expect(withReservedSlug('sfo1', 'globex', async () => 'x')).resolves.toBe('x'); // its own slug: idempotent
    await expect(withReservedSlug('ams1', 'globex', async () => 'never')).rejects.toMatchObject({ code: 'slug_taken' });
    // A reserved slug does not resolve yet: a look-up sees the same decoy as for an unknown one.
    await withReservedSlug('lax1', 'stark', async () => {
      const during = await json(await r.resolve(lookupRequest({ slug: 'stark' }, '198.51.100.60')));
      expect(during.region).not.toBeUndefined();
      expect(during).toEqual(await json(await r.resolve(lookupRequest({ slug: 'stark' }, '198.51.100.61'))));
    });
    expect(await json(await r.resolve(lookupRequest({ slug: 'stark' }, '198.51.100.62')))).toMatchObject({
      region: 'lax1',
    });
  });
});

describe('Atlas: GET /v1/atlas/directory/workspaces', () => {
  it('lists slug, region, status and last change for operators; customers get 403', async () => {
    const ops = await primary().user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } });
    const alice = await primary().user.findUniqueOrThrow({
      where: { email: 'alice@acme.test' },
      include: { memberships: true },
    });
    const res = await rest<{
      data: { slug: string; region: string; status: string; updated_at: string }[];
      next_cursor: string | null;
    }>('GET', '/v1/atlas/directory/workspaces?limit=2', { headers: { cookie: await sessionCookie(ops.id, null) } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((w) => w.slug)).toEqual(['acme', 'globex']);
    expect(res.body.data[0]).toMatchObject({
      region: 'sfo1',
      status: 'active',
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(res.body.next_cursor).toBe('globex');
    const next = await rest<{ data: { slug: string }[] }>(
      'GET',
      '/v1/atlas/directory/workspaces?limit=50&cursor=globex&region=ams1',
      {
        headers: { cookie: await sessionCookie(ops.id, null) },
      },
    );
    expect(next.body.data.map((w) => w.slug)).toEqual(['initech']);
    const customer = await rest('GET', '/v1/atlas/directory/workspaces', {
      headers: { cookie: await sessionCookie(alice.id, alice.memberships[0]!.orgId) },
    });
    expect(customer.status).toBe(403);
  });
});

describe('slugs are unique across regions', () => {
  it('two cells reserving one slug at once: one gets it, the other 409', async () => {
    const results = await Promise.all(
      // (lax1's key is at version 2 since the rotation above.)
      ['sfo1', 'lax1', 'ams1'].map((region) =>
        r.internal(
          signedRequest(region, 'POST', '/internal/v1/workspaces/contested/reserve', undefined, {
            version: region === 'lax1' ? 2 : 1,
          }),
        ),
      ),
    );
    expect(results.map((x) => x.status).sort()).toEqual([200, 409, 409]);
    expect(await primary().directoryWorkspace.count({ where: { slug: 'contested' } })).toBe(1);
  });
});

describe('registered addresses', () => {
  // sfo1's cell: its key was never rotated here.
  let name = '';
  const put = async (address: string) => {
    name ||= (await primary().directoryRegion.findUniqueOrThrow({ where: { code: 'sfo1' } })).name;
    return r.internal(signedRequest('sfo1', 'PUT', '/internal/v1/regions/sfo1', { name, address, status: 'active' }));
  };

  it('a cell may register only {region}.{MERIDIAN_HOST} (or a listed origin): anything else is 400, nothing changed', async () => {
    const before = await directorySnapshot();
    for (const address of [
      'http://evil.test',
      'http://sfo1.localhost.evil.test:3000',
      'http://lax1.localhost:3000',
      'http://sfo1.localhost:3000/sign-in',
      'http://user@sfo1.localhost:3000',
      'http://sfo1.localhost:3000/?next=x',
      'ftp://sfo1.localhost',
    ]) {
      const res = await put(address);
      const body = await json(res);
      expect([address, res.status, body.error?.code]).toEqual([address, 400, 'invalid_request']);
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    }
    expect(await directorySnapshot()).toBe(before);
    expect((await put('http://sfo1.localhost:3000')).status).toBe(200);
    expect((await put('https://sfo1.localhost')).status).toBe(200);

    process.env.DIRECTORY_REGION_ADDRESSES = 'sfo1=https://sf.example.com,sfo1=https://sf2.example.com';
    resetEnvCache();
    try {
      expect((await put('https://sf.example.com')).status).toBe(200);
      expect((await put('https://sf2.example.com/')).status).toBe(200);
      expect((await put('http://sfo1.localhost:3000')).status).toBe(400); // a listed region: only its list
    } finally {
      delete process.env.DIRECTORY_REGION_ADDRESSES;
      resetEnvCache();
    }
    expect((await put('http://sfo1.localhost:3000')).status).toBe(200);
  });
});

describe('decoys stay like real answers over time', () => {
  it('a workspace that is moving resolves like any other (a decoy could never say "moving")', async () => {
    await primary().directoryWorkspace.update({ where: { slug: 'globex' }, data: { status: 'moving' } });
    try {
      const res = await r.resolve(lookupRequest({ slug: 'globex' }, '198.51.100.60'));
      expect(await res.json()).toEqual({
        region: 'sfo1',
        name: expect.any(String),
        address: 'http://sfo1.localhost:3000',
        status: 'active',
      });
    } finally {
      await primary().directoryWorkspace.update({ where: { slug: 'globex' }, data: { status: 'active' } });
    }
  });

  it('adding a region moves only the decoys it now wins, and only to it; real workspaces stay', async () => {
    const slugs = Array.from({ length: 300 }, (_, i) => `nobody-at-all-${i}`);
    const before = await Promise.all(slugs.map((s) => lookUpWorkspace(s)));
    const knownBefore = await Promise.all(['acme', 'globex'].map((s) => lookUpWorkspace(s)));
    await primary().directoryRegion.create({
      data: { code: 'fra1', name: 'Frankfurt', baseUrl: 'http://fra1.localhost:3000', status: 'active' },
    });
    try {
      const after = await Promise.all(slugs.map((s) => lookUpWorkspace(s)));
      const moved = after.filter((a, i) => a.region !== before[i]!.region);
      // Every decoy that changed went to the new region (a reshuffle would move most, anywhere).
      expect(new Set(moved.map((m) => m.region))).toEqual(new Set(['fra1']));
      // About 1 in 4 (75 of 300): bounds wide enough for any keyed hash.
      expect(moved.length).toBeGreaterThan(30);
      expect(moved.length).toBeLessThan(130);
      expect(await Promise.all(['acme', 'globex'].map((s) => lookUpWorkspace(s)))).toEqual(knownBefore);
    } finally {
      await primary().directoryRegion.delete({ where: { code: 'fra1' } });
    }
    expect(await Promise.all(slugs.map((s) => lookUpWorkspace(s)))).toEqual(before);
  });
});
