// GET /v1/api-keys pages like every other list (a keyset cursor, `limit` at most 200) and an
// organization holds at most MAX_ACTIVE_API_KEYS unrevoked keys (409 limit_exceeded past that,
// also under concurrent creates), over the real REST adapter and a real primary + replicas.
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { committedWhileWaiting } from '../../dev/testing/lock-wait';
import { MAX_ACTIVE_API_KEYS } from '../../server/api-keys/api-keys';
import { primary } from '../../server/db/client';
import { newId } from '../../server/ids';

type ErrorOut = { error: { code: string; message: string; request_id: string; limit?: number } };
type Key = { id: string; name: string; created_at: string; revoked_at: string | null };
type Page = { data: Key[]; next_cursor: string | null };

let bob: string;
let globexId: string;
let primaryUrl: string;

const list = (query: string) => rest<Page & ErrorOut>('GET', `/v1/api-keys${query}`, { headers: { cookie: bob } });
const create = (name: string) =>
  rest<Key & ErrorOut>('POST', '/v1/api-keys', { headers: { cookie: bob }, body: { name, region: 'lax1' } });
const active = () => primary().apiKey.count({ where: { orgId: globexId, revokedAt: null } });

beforeAll(async () => {
  primaryUrl = (await useDemoDatabase('api_keys')).urls.primary;
  const db = primary();
  const bobId = (await db.user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
  globexId = (await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } })).id;
  bob = await sessionCookie(bobId, globexId);
});

describe('GET /v1/api-keys pages', () => {
  it('walks every key once, newest first, in pages of `limit`; the last page has no cursor', async () => {
    for (let i = 0; i < 7; i++) expect((await create(`page-${i}`)).status).toBe(201);
    const all = await primary().apiKey.findMany({
      where: { orgId: globexId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true },
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data.map((k) => k.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 50);
    expect(seen).toEqual(all.map((k) => k.id));
    expect(pages).toBe(Math.ceil(all.length / 3));
  });

  it('defaults to 50 and refuses a limit over 200 or a cursor it did not issue (400 invalid_request)', async () => {
    const first = await list('');
    expect(first.status).toBe(200);
    expect(first.body.data.length).toBeLessThanOrEqual(50);
    for (const q of ['?limit=201', '?limit=0', '?cursor=nope', `?cursor=${Buffer.from('x|y').toString('base64url')}`]) {
      const res = await list(q);
      expect([q, res.status, res.body.error?.code]).toEqual([q, 400, 'invalid_request']);
    }
  });
});

describe('a create that waits for a change of the organization’s row', () => {
  /** `change` committed while a create for lax1 waits for it: the create's answer. */
  const createDuring = (name: string, change: (c: pg.Client) => Promise<unknown>) =>
    committedWhileWaiting(primaryUrl, change, () => create(name));

  it('a handover away from the key’s region that commits meanwhile refuses it; any other change lets it through', async () => {
    const touched = await createDuring('after-a-touch', (c) =>
      c.query('UPDATE organizations SET updated_at = now() WHERE id = $1', [globexId]),
    );
    expect(touched.status, JSON.stringify(touched.body)).toBe(201);

    const home = (await primary().organization.findUniqueOrThrow({ where: { id: globexId } })).homeRegion;
    const moveId = newId('mov');
    try {
      // What a move's handover from lax1 to sfo1 commits (server/moves/switch-home.ts), in short.
      const refused = await createDuring('after-a-handover', async (c) => {
        await c.query(
          `INSERT INTO workspace_moves (id, org_id, from_region, to_region, status, handover_at)
           VALUES ($1, $2, 'lax1', 'sfo1', 'completed', now())`,
          [moveId, globexId],
        );
        await c.query(`UPDATE organizations SET home_region = 'sfo1' WHERE id = $1`, [globexId]);
      });
      expect([refused.status, refused.body.error?.code]).toEqual([403, 'region_not_allowed']);
      expect(await primary().apiKey.count({ where: { orgId: globexId, name: 'after-a-handover' } })).toBe(0);
    } finally {
      await primary().workspaceMove.delete({ where: { id: moveId } });
      await primary().organization.update({ where: { id: globexId }, data: { homeRegion: home } });
    }
  });
});

describe('at most MAX_ACTIVE_API_KEYS unrevoked keys per organization', () => {
  it('409 limit_exceeded at the cap, also when creates race for the last places; revoking frees one', async () => {
    let n = await active();
    while (n < MAX_ACTIVE_API_KEYS - 2) {
      const batch = Math.min(10, MAX_ACTIVE_API_KEYS - 2 - n);
      const made = await Promise.all(Array.from({ length: batch }, (_, i) => create(`fill-${n + i}`)));
      expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
      n += batch;
    }
    // Two places left, six creates at once: exactly two get them.
    const race = await Promise.all(Array.from({ length: 6 }, (_, i) => create(`race-${i}`)));
    expect(race.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = race.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.error.code])).toEqual(refused.map(() => [409, 'limit_exceeded']));
    expect(refused[0]!.body.error).toMatchObject({
      limit: MAX_ACTIVE_API_KEYS,
      message: expect.stringMatching(/revoke/),
    });
    expect(refused[0]!.headers.get('X-Request-Id')).toMatch(/^req_/);
    expect(await active()).toBe(MAX_ACTIVE_API_KEYS);

    const global = await rest<ErrorOut>('POST', '/v1/api-keys/global', {
      headers: { cookie: bob },
      body: { name: 'g' },
    });
    expect([global.status, global.body.error.code]).toEqual([409, 'limit_exceeded']);

    const victim = race.find((r) => r.status === 201)!.body.id;
    expect((await rest('DELETE', `/v1/api-keys/${victim}`, { headers: { cookie: bob } })).status).toBe(200);
    expect((await create('after-revoke')).status).toBe(201);
    expect((await create('over-again')).status).toBe(409);
  });
});
