// What a request costs in round trips, as its decision record states it (server/db/round-trips.ts):
// a read by a principal that has not just written sends nothing to the primary, a user-facing
// write is one flight to the primary (its statement and the bookmark: server/db/write-flight.ts),
// and the count is per request, not per process.
import { beforeAll, describe, expect, it } from 'vitest';
import { memberCookie, rest, useDemoDatabase } from '../../dev/testing/app';
import { query, topology, waitForReplay } from '../../dev/testing/db';
import { storedDecisions } from '../../dev/testing/decisions';
import { eventually } from '../../dev/testing/eventually';
import { ensureListening, identityCacheState } from '../../server/auth/identity-cache';
import { ensureWritePositions } from '../../server/db/write-notices';
import { flushDecisions, resetDecisionLog } from '../../server/routing/decision-log';

let primaryUrl: string;
let key: string;
let alice: string;
let bob: string;

/** What the stored record of a request says it cost. */
async function tripsOf(requestId: string): Promise<{ primary: number; replicas: Record<string, number> }> {
  await flushDecisions();
  const [record] = await storedDecisions(primaryUrl, [requestId]);
  expect(record, `a record for ${requestId}`).toBeDefined();
  return { primary: record!.round_trips.primary, replicas: record!.round_trips.replicas };
}

const get = (path: string) => rest('GET', path, { headers: { authorization: `Bearer ${key}`, 'x-region': 'sfo1' } });

beforeAll(async () => {
  const db = await useDemoDatabase('round_trips');
  const creds = db.credentials;
  primaryUrl = db.urls.primary;
  await resetDecisionLog();
  key = creds.api_keys.find((k) => k.org === 'acme' && k.region === 'sfo1')!.key;
  alice = await memberCookie(primaryUrl, 'alice@acme.test', 'acme');
  bob = await memberCookie(primaryUrl, 'bob@globex.test', 'globex');
  expect(await ensureWritePositions(5_000)).toBe(true); // else signed-in reads use the primary
  // Listening begins with a floor, the primary's position then: for 30 s every read needs it on
  // the replica. The seed's replay must be done, or a loaded machine sends the read to the primary.
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
  // The identity cache keeps entries only once it hears changes: an entry made before its listener
  // is up lives 1 s, and the listener's start empties the cache (identity-cache.ts).
  ensureListening();
  await eventually(async () => identityCacheState().connected, 10_000, 'the identity listener');
  await get('/v1/projects'); // warms the pools
  for (const cookie of [alice, bob]) await rest('GET', '/v1/me', { headers: { cookie, 'x-region': 'sfo1' } });
});

describe('round trips per request', () => {
  it('a read on a warm cache by a principal that has not just written: the replica only', async () => {
    // Warmed right before (entries live 5 s): a key's first look-up at the global address, whose
    // region comes after the identity, is the primary's.
    await get('/v1/projects');
    const res = await get('/v1/projects');
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Meridian-Served-By')).toBe('replica:sfo1');
    const t = await tripsOf(res.headers.get('X-Request-Id')!);
    expect(t.primary).toBe(0);
    expect(t.replicas.sfo1).toBeGreaterThanOrEqual(1);
  });

  it('a write sends its statements to the primary, and its own count only', async () => {
    const res = await rest('POST', '/v1/projects', {
      headers: { authorization: `Bearer ${key}`, 'x-region': 'sfo1' },
      body: { name: `rt-${Date.now()}` },
    });
    expect(res.status).toBe(201);
    const t = await tripsOf(res.headers.get('X-Request-Id')!);
    expect(t.primary).toBeGreaterThanOrEqual(1);
    const after = await get('/v1/projects');
    // Right after its own write the principal's read waits for the replica (or reads the
    // primary when the replica is behind): never more than one statement to the primary.
    expect((await tripsOf(after.headers.get('X-Request-Id')!)).primary).toBeLessThanOrEqual(1);
  });

  it('every user-facing write is one round trip: its statement and the bookmark in one flight', async () => {
    const asKey = { authorization: `Bearer ${key}`, 'x-region': 'sfo1' };
    const asAlice = { cookie: alice, 'x-region': 'sfo1' };
    const asBob = { cookie: bob, 'x-region': 'sfo1' };
    const oneTrip = async (res: Awaited<ReturnType<typeof rest>>, status: number, what: string) => {
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
      expect((await tripsOf(res.headers.get('X-Request-Id')!)).primary, what).toBe(1);
    };
    const name = `one-${Date.now()}`;
    const created = await rest<{ id: string; name: string }>('POST', '/v1/projects', {
      headers: asKey,
      body: { name },
    });
    await oneTrip(created, 201, 'project create');
    // A bookmark that covers the commit comes back with it: the replica, once there, has the project.
    expect(created.headers.get('X-Meridian-Bookmark')).toMatch(/\S/);
    await oneTrip(
      await rest('POST', '/v1/projects', { headers: asKey, body: { name } }),
      409,
      'project create, name taken',
    );
    const idem = { ...asKey, 'Idempotency-Key': `rt-${Date.now()}` };
    const first = await rest<{ id: string }>('POST', '/v1/projects', { headers: idem, body: { name: `${name}-k` } });
    await oneTrip(first, 201, 'project create with a key');
    const again = await rest<{ id: string }>('POST', '/v1/projects', { headers: idem, body: { name: `${name}-k` } });
    await oneTrip(again, 201, 'its replay');
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    await oneTrip(
      await rest('POST', '/v1/projects', { headers: idem, body: { name: `${name}-other` } }),
      409,
      'the key with another request',
    );

    const [unread] = await query<{ id: string }>(
      primaryUrl,
      `SELECT n.id FROM notifications n JOIN organizations o ON o.id = n.org_id JOIN users u ON u.email = 'alice@acme.test'
        WHERE o.slug = 'acme' AND NOT n.read AND (n.user_id IS NULL OR n.user_id = u.id) LIMIT 1`,
    );
    expect(unread, 'an unread notification of alice’s').toBeDefined();
    const read = await rest<{ id: string; read: boolean; read_at: string }>(
      'PATCH',
      `/v1/notifications/${unread!.id}/read`,
      { headers: asAlice, body: {} },
    );
    await oneTrip(read, 200, 'notification read');
    expect([read.body.id, read.body.read]).toEqual([unread!.id, true]);
    const reread = await rest<{ read_at: string }>('PATCH', `/v1/notifications/${unread!.id}/read`, {
      headers: asAlice,
      body: {},
    });
    await oneTrip(reread, 200, 'notification read twice');
    expect(reread.body.read_at).toBe(read.body.read_at); // already read: unchanged
    await oneTrip(
      await rest('PATCH', '/v1/notifications/ntf_nonesuch/read', { headers: asAlice, body: {} }),
      404,
      'an unknown notification',
    );
    await oneTrip(await rest('POST', '/v1/notifications/read-all', { headers: asAlice, body: {} }), 200, 'read all');

    await oneTrip(
      await rest('POST', '/v1/compute/clusters', { headers: asKey, body: { name: `${name}-c` } }),
      202,
      'cluster create',
    );
    // Last: a session's identity includes its settings, so the request after a change re-reads it
    // (here, at the global address, which has no replica of its own, from the primary).
    await oneTrip(
      await rest('PATCH', '/v1/me/settings', { headers: asAlice, body: { theme: 'dark' } }),
      200,
      'settings',
    );
    const settings = await rest('PATCH', '/v1/me/settings', { headers: asBob, body: { default_region: null } });
    await oneTrip(settings, 200, 'settings of another person');
    expect(settings.body).toEqual({ theme: 'system', default_region: null });
  });

  it('deleting a project, an API key’s create and revoke, an invitation’s: one round trip each', async () => {
    const asKey = { authorization: `Bearer ${key}`, 'x-region': 'sfo1' };
    const asAlice = { cookie: alice, 'x-region': 'sfo1' };
    const oneTrip = async (res: Awaited<ReturnType<typeof rest>>, status: number, what: string) => {
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
      expect((await tripsOf(res.headers.get('X-Request-Id')!)).primary, what).toBe(1);
      return res;
    };
    const name = `del-${Date.now()}`;
    const made = await rest<{ id: string }>('POST', '/v1/projects', { headers: asKey, body: { name } });
    expect(made.status).toBe(201);
    const gone = await oneTrip(await rest('DELETE', `/v1/projects/${made.body.id}`, { headers: asKey }), 200, 'delete');
    expect(gone.body).toEqual(made.body); // the project as it was shown, built by the statement
    await oneTrip(await rest('DELETE', `/v1/projects/${made.body.id}`, { headers: asKey }), 404, 'delete, gone');

    const busy = await rest<{ id: string }>('POST', '/v1/projects', { headers: asKey, body: { name: `${name}-b` } });
    const cluster = await rest('POST', '/v1/compute/clusters', {
      headers: asKey,
      body: { name: `${name}-c`, project_id: busy.body.id },
    });
    expect(cluster.status, JSON.stringify(cluster.body)).toBe(202);
    const refused = await oneTrip(
      await rest<{ error: { code: string; message: string } }>('DELETE', `/v1/projects/${busy.body.id}`, {
        headers: asKey,
      }),
      409,
      'delete, live clusters',
    );
    expect(refused.body).toMatchObject({
      error: { code: 'conflict', message: expect.stringContaining('1 live cluster') },
    });

    const spare = await rest<{ id: string }>('POST', '/v1/projects', { headers: asKey, body: { name: `${name}-k` } });
    const idem = { ...asKey, 'Idempotency-Key': `del-${Date.now()}` };
    const first = await oneTrip(
      await rest('DELETE', `/v1/projects/${spare.body.id}`, { headers: idem }),
      200,
      'delete, keyed',
    );
    const again = await oneTrip(
      await rest('DELETE', `/v1/projects/${spare.body.id}`, { headers: idem }),
      200,
      'its replay',
    );
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);

    const created = await oneTrip(
      await rest<{ id: string; key: string }>('POST', '/v1/api-keys', {
        headers: asAlice,
        body: { name: `${name}-key`, scopes: ['read'] },
      }),
      201,
      'key create',
    );
    const id = (created.body as { id: string }).id;
    const revoked = await oneTrip(await rest('DELETE', `/v1/api-keys/${id}`, { headers: asAlice }), 200, 'revoke');
    expect(revoked.body).toMatchObject({ id, revoked_at: expect.any(String) });
    const twice = await oneTrip(await rest('DELETE', `/v1/api-keys/${id}`, { headers: asAlice }), 200, 'revoke twice');
    expect(twice.body).toEqual(revoked.body); // revoked already: answered as it is
    await oneTrip(await rest('DELETE', '/v1/api-keys/key_nonesuch', { headers: asAlice }), 404, 'revoke, unknown');

    // An invitation: the organization's shared rate limit (its own round trip, rate-limiter-flexible
    // on the primary), then one statement; no mail is configured here (a sent one is marked: one more).
    const invited = await rest<{ id: string }>('POST', '/v1/invitations', {
      headers: asAlice,
      body: { email: `${name}@example.test`, role: 'viewer' },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect((await tripsOf(invited.headers.get('X-Request-Id')!)).primary).toBe(2);
    await oneTrip(await rest('DELETE', `/v1/invitations/${invited.body.id}`, { headers: asAlice }), 200, 'uninvite');
  });
});
