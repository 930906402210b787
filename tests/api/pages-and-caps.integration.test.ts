// Issue 28, pages and caps, over the real REST adapter and a real primary + replicas: every list
// refuses a hostile `limit` (400, never 500), projects and notifications page by the cursor
// module's keyset, an organization holds at most MAX_PROJECTS projects (also under racing
// creates), and the workers' sweeps delete what is past retention, in that organization only.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { topology, waitForReplay } from '../../dev/testing/db';
import { newId } from '../../server/ids';
import { primary } from '../../server/db/client';
import { openApiDocument } from '../../server/api/openapi';
import { MAX_PROJECTS } from '../../server/projects/projects';
import { MAX_NOTIFICATIONS_PER_ORG, NOTIFICATION_RETENTION_DAYS } from '../../server/notifications/retention';
import { pruneNotificationsStatement } from '../../server/notifications/notifications.sql';
import { REVOKED_API_KEY_RETENTION_DAYS } from '../../server/api-keys/retention';
import { REVOKED_CREDENTIAL_RETENTION_DAYS } from '../../server/clusters/kubeconfig-retention';
import { IDEMPOTENCY_TTL_HOURS } from '../../server/db/idempotency';
import { DELETED_PROJECT_RETENTION_DAYS } from '../../server/projects/retention';
import { sweepOnce } from '../../server/runtime/housekeeping';
import { sealSigningSecret } from '../../server/webhooks/secrets';

type ErrorOut = { error: { code: string; message: string; request_id: string; limit?: number } };
type Page<T> = { data: T[]; next_cursor: string | null };

const DAY = 24 * 3600_000;
let bob: string;
let ops: string;
let globexId: string;
let acmeId: string;
let bobId: string;
/** An endpoint of globex: the id of the one list under a path parameter (its deliveries). */
let webhookId: string;
let primaryUrl: string;

beforeAll(async () => {
  primaryUrl = (await useDemoDatabase('pages_caps')).urls.primary;
  const db = primary();
  bobId = (await db.user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
  globexId = (await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } })).id;
  acmeId = (await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } })).id;
  bob = await sessionCookie(bobId, globexId);
  ops = await sessionCookie((await db.user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } })).id, null);
  webhookId = newId('whk');
  await db.webhookEndpoint.create({
    data: {
      id: webhookId,
      orgId: globexId,
      url: 'https://hooks.example.test/caps',
      eventTypes: ['cluster.ready'],
      secretSealed: sealSigningSecret(webhookId, 'whsec_caps'),
    },
  });
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
});

/** Follows next_cursor from the first page to the last, `limit` at a time. */
async function walk<T extends { id: string }>(path: string, limit: number, cookie = bob): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const sep = path.includes('?') ? '&' : '?';
    const res: { status: number; body: Page<T> & ErrorOut } = await rest<Page<T> & ErrorOut>(
      'GET',
      `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers: { cookie } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    seen.push(...res.body.data.map((x) => x.id));
    cursor = res.body.next_cursor;
    if (!cursor) return seen;
  }
  throw new Error(`${path}: still paging after 100 pages`);
}

describe('every list has a maximum page size', () => {
  it('a hostile limit is 400 invalid_request with the stable error shape on every list of the document', async () => {
    const lists = Object.entries(openApiDocument().paths ?? {})
      .filter(([, ops]) => (ops?.get?.parameters ?? []).some((p) => 'name' in p && p.name === 'limit'))
      .map(([path]) => `/v1${path.replace('{id}', webhookId)}`);
    // The document's lists, Arc and Atlas: not a vacuous walk.
    expect(lists).toEqual(
      expect.arrayContaining([
        '/v1/api-keys',
        '/v1/projects',
        '/v1/notifications',
        '/v1/atlas/directory/workspaces',
        `/v1/webhooks/${webhookId}/deliveries`,
      ]),
    );
    for (const path of lists) {
      const cookie = path.startsWith('/v1/atlas') ? ops : bob;
      for (const limit of ['201', '0', '-1', '1e9', '99999999999999999999', 'abc', '2.5']) {
        const res = await rest<ErrorOut>('GET', `${path}?limit=${limit}`, { headers: { cookie, 'x-region': 'sfo1' } });
        expect([path, limit, res.status, res.body.error?.code]).toEqual([path, limit, 400, 'invalid_request']);
        expect(res.body.error.request_id).toMatch(/^req_/);
        expect(typeof res.body.error.message).toBe('string');
      }
      // The one list that needs more than a page: a policy's versions, of some organization.
      const more = path === '/v1/atlas/policies' ? '&org=default' : '';
      const max = await rest('GET', `${path}?limit=200${more}`, { headers: { cookie, 'x-region': 'sfo1' } });
      expect([path, max.status]).toEqual([path, 200]);
    }
  });
});

describe('projects and notifications page by keyset cursors', () => {
  it('walks every notification once, newest first, also through rows created at the same instant', async () => {
    const at = new Date(Date.now() - 60_000);
    // Same timestamps, random IDs: an ID-only cursor would skip or repeat rows here.
    await primary().notification.createMany({
      data: Array.from({ length: 9 }, (_, i) => ({
        id: newId('ntf'),
        orgId: globexId,
        userId: i % 3 === 0 ? bobId : null,
        kind: 'test',
        title: `n${i}`,
        body: 'paging',
        createdAt: i < 6 ? at : new Date(at.getTime() - i * 1000),
      })),
    });
    const expected = await primary().notification.findMany({
      where: { orgId: globexId, OR: [{ userId: null }, { userId: bobId }] },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true },
    });
    expect(expected.length).toBeGreaterThanOrEqual(9);
    expect(await walk('/v1/notifications', 2)).toEqual(expected.map((n) => n.id));
  });

  it('walks every project once', async () => {
    for (let i = 0; i < 5; i++) {
      const made = await rest('POST', '/v1/projects', {
        headers: { cookie: bob },
        body: { name: `paged-${i}`, region: 'sfo1' },
      });
      expect(made.status).toBe(201);
    }
    const expected = await primary().project.findMany({ where: { orgId: globexId }, orderBy: { id: 'asc' } });
    expect(await walk('/v1/projects', 2)).toEqual(expected.map((p) => p.id));
  });

  it('a cursor this API did not issue is 400, not another page', async () => {
    const raw = (await primary().project.findFirstOrThrow({ where: { orgId: globexId } })).id;
    const foreign = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 'key_x'])).toString('base64url');
    for (const [path, cursor] of [
      ['/v1/projects', raw], // the old format: a bare ID
      ['/v1/projects', foreign],
      ['/v1/notifications', 'ntf_nope'],
      ['/v1/notifications', foreign],
    ] as const) {
      const res = await rest<ErrorOut>('GET', `${path}?cursor=${cursor}`, { headers: { cookie: bob } });
      expect([path, cursor, res.status, res.body.error?.code]).toEqual([path, cursor, 400, 'invalid_request']);
    }
  });
});

describe(`at most MAX_PROJECTS (${MAX_PROJECTS}) projects per organization`, () => {
  it('409 limit_exceeded at the cap, also for creates racing for the last places; other organizations unaffected', async () => {
    const have = await primary().project.count({ where: { orgId: globexId } });
    // Filled behind the API's back: the database's own check counts them all the same.
    await primary().project.createMany({
      data: Array.from({ length: MAX_PROJECTS - 2 - have }, (_, i) => ({
        id: newId('prj'),
        orgId: globexId,
        name: `filler-${i}`,
      })),
    });
    expect(await primary().project.count({ where: { orgId: globexId } })).toBe(MAX_PROJECTS - 2);

    const race = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        rest<ErrorOut & { id: string }>('POST', '/v1/projects', {
          headers: { cookie: bob },
          body: { name: `race-${i}`, region: 'sfo1' },
        }),
      ),
    );
    expect(race.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = race.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.error.code])).toEqual(refused.map(() => [409, 'limit_exceeded']));
    expect(refused[0]!.body.error).toMatchObject({ limit: MAX_PROJECTS, request_id: expect.stringMatching(/^req_/) });
    expect(await primary().project.count({ where: { orgId: globexId } })).toBe(MAX_PROJECTS);

    // With an Idempotency-Key too, and a retry of it gets the same refusal (nothing was recorded).
    const keyed = () =>
      rest<ErrorOut>('POST', '/v1/projects', {
        headers: { cookie: bob, 'idempotency-key': 'cap-1' },
        body: { name: 'keyed', region: 'sfo1' },
      });
    for (const res of [await keyed(), await keyed()]) {
      expect([res.status, res.body.error.code]).toEqual([409, 'limit_exceeded']);
    }

    // The bound is per organization: globex's full house leaves acme's room alone.
    const alice = await sessionCookie(
      (await primary().user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } })).id,
      acmeId,
    );
    const other = await rest('POST', '/v1/projects', { headers: { cookie: alice }, body: { name: 'still-room' } });
    expect(other.status).toBe(201);
  });
});

describe('the workers’ sweeps', () => {
  it('delete what is past retention in each organization, nothing else, and skip one being moved', async () => {
    const db = primary();
    const ago = (ms: number) => new Date(Date.now() - ms);
    const note = (orgId: string, createdAt: Date, title: string) => ({
      id: newId('ntf'),
      orgId,
      userId: null,
      kind: 'test',
      title,
      body: 'retention',
      createdAt,
    });
    await db.notification.deleteMany({});
    // globex: two past retention, and MAX + 3 fresh ones (the oldest 3 of them beyond the bound).
    const old = (NOTIFICATION_RETENTION_DAYS + 1) * DAY;
    await db.notification.createMany({
      data: [
        note(globexId, ago(old), 'old-1'),
        note(globexId, ago(old + 1000), 'old-2'),
        ...Array.from({ length: MAX_NOTIFICATIONS_PER_ORG + 3 }, (_, i) => note(globexId, ago(i * 1000), `fresh-${i}`)),
      ],
    });
    // acme: one past retention, a few fresh; moving at first, so the sweep must leave it alone.
    await db.notification.createMany({
      data: [note(acmeId, ago(old), 'acme-old'), ...[1, 2, 3].map((i) => note(acmeId, ago(i * DAY), `acme-${i}`))],
    });

    const keyRow = (orgId: string, name: string, revokedAt: Date | null) => ({
      id: newId('key'),
      orgId,
      name,
      region: 'sfo1',
      prefix: newId('key').slice(4, 16),
      secretHash: 'x',
      createdAt: ago(400 * DAY),
      revokedAt,
    });
    const keyRetention = REVOKED_API_KEY_RETENTION_DAYS * DAY;
    await db.apiKey.createMany({
      data: [
        keyRow(globexId, 'long-revoked', ago(keyRetention + DAY)),
        keyRow(globexId, 'lately-revoked', ago(keyRetention - DAY)),
        keyRow(globexId, 'old-but-active', null),
        keyRow(acmeId, 'acme-long-revoked', ago(keyRetention + DAY)),
      ],
    });

    const cluster = await db.cluster.findFirstOrThrow({ where: { orgId: globexId } });
    const acmeCluster = await db.cluster.findFirstOrThrow({ where: { orgId: acmeId } });
    const credRetention = REVOKED_CREDENTIAL_RETENTION_DAYS * DAY;
    const cred = (c: { id: string; orgId: string }, name: string, revokedAt: Date | null) => ({
      id: newId('key').replace('key_', 'kcr_'),
      clusterId: c.id,
      orgId: c.orgId,
      prefix: newId('key').slice(4, 16),
      secretHash: 'x',
      createdBy: name,
      createdAt: ago(100 * DAY),
      revokedAt,
      revokedReason: revokedAt ? 'superseded' : null,
    });
    await db.kubeconfigCredential.createMany({
      data: [
        cred(cluster, 'long-revoked', ago(credRetention + DAY)),
        cred(cluster, 'lately-revoked', ago(credRetention - DAY)),
        cred(cluster, 'active', null),
        cred(acmeCluster, 'acme-long-revoked', ago(credRetention + DAY)),
      ],
    });

    const ttl = IDEMPOTENCY_TTL_HOURS * 3600_000;
    const record = (orgId: string, key: string, createdAt: Date) => ({
      orgId,
      key,
      requestHash: 'h',
      responseStatus: 201,
      responseBody: {},
      createdAt,
    });
    await db.idempotencyKey.createMany({
      data: [
        record(globexId, 'expired', ago(ttl + 60_000)),
        record(globexId, 'fresh', ago(ttl - 60_000)),
        record(acmeId, 'acme-expired', ago(ttl + 60_000)),
      ],
    });

    // Deleted projects: past retention and named by no cluster (purged), or named by a deleted
    // cluster (kept with it), or deleted lately, or live.
    const projectRetention = DELETED_PROJECT_RETENTION_DAYS * DAY;
    const projectRow = (orgId: string, name: string, deletedAt: Date | null) => ({
      id: newId('prj'),
      orgId,
      name,
      createdAt: ago(400 * DAY),
      deletedAt,
    });
    const named = projectRow(globexId, 'named-by-a-cluster', ago(projectRetention + DAY));
    await db.project.createMany({
      data: [
        projectRow(globexId, 'long-deleted', ago(projectRetention + DAY)),
        named,
        projectRow(globexId, 'lately-deleted', ago(projectRetention - DAY)),
        projectRow(acmeId, 'acme-long-deleted', ago(projectRetention + DAY)),
      ],
    });
    await db.cluster.update({ where: { id: cluster.id }, data: { projectId: named.id } });
    const projectNames = async (orgId: string) =>
      (
        await db.project.findMany({ where: { orgId, createdAt: { lt: ago(300 * DAY) } }, orderBy: { name: 'asc' } })
      ).map((p) => p.name);

    await db.organization.update({ where: { id: acmeId }, data: { status: 'moving' } });
    const first = await sweepOnce();
    expect(first).toMatchObject({
      notifications: 5,
      'revoked API keys': 1,
      'revoked kubeconfig credentials': 1,
      'deleted projects': 1,
    });
    expect(await projectNames(globexId)).toEqual(['lately-deleted', 'named-by-a-cluster']);
    expect(await projectNames(acmeId)).toEqual(['acme-long-deleted']);

    const notes = async (orgId: string) =>
      (await db.notification.findMany({ where: { orgId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] })).map(
        (n) => n.title,
      );
    const globexNotes = await notes(globexId);
    expect(globexNotes).toEqual(Array.from({ length: MAX_NOTIFICATIONS_PER_ORG }, (_, i) => `fresh-${i}`));
    expect(await notes(acmeId)).toEqual(['acme-1', 'acme-2', 'acme-3', 'acme-old']);

    const keyNames = async (orgId: string) =>
      (await db.apiKey.findMany({ where: { orgId, secretHash: 'x' }, orderBy: { name: 'asc' } })).map((k) => k.name);
    expect(await keyNames(globexId)).toEqual(['lately-revoked', 'old-but-active']);
    expect(await keyNames(acmeId)).toEqual(['acme-long-revoked']);

    const credsOf = async (orgId: string) =>
      (
        await db.kubeconfigCredential.findMany({ where: { orgId, secretHash: 'x' }, orderBy: { createdBy: 'asc' } })
      ).map((c) => c.createdBy);
    expect(await credsOf(globexId)).toEqual(['active', 'lately-revoked']);
    expect(await credsOf(acmeId)).toEqual(['acme-long-revoked']);

    // Idempotency records expire by age alone (a move copies only its last 23 hours of them).
    const records = (
      await db.idempotencyKey.findMany({
        where: { key: { in: ['expired', 'fresh', 'acme-expired'] } },
        orderBy: { key: 'asc' },
      })
    ).map((r) => r.key);
    expect(records).toEqual(['fresh']);

    // Once acme is no longer moving, the next sweep reaches it too; globex has nothing more to lose.
    await db.organization.update({ where: { id: acmeId }, data: { status: 'active' } });
    const second = await sweepOnce();
    expect(second).toMatchObject({
      notifications: 1,
      'revoked API keys': 1,
      'revoked kubeconfig credentials': 1,
      'deleted projects': 1,
    });
    expect(await projectNames(acmeId)).toEqual([]);
    expect(await notes(acmeId)).toEqual(['acme-1', 'acme-2', 'acme-3']);
    expect(await notes(globexId)).toEqual(globexNotes);
    expect(await keyNames(acmeId)).toEqual([]);
    expect(await credsOf(acmeId)).toEqual([]);
  });
  it('a move waits for a sweep begun before it: nothing is deleted under its export', async () => {
    const db = primary();
    await db.notification.create({
      data: {
        id: newId('ntf'),
        orgId: acmeId,
        kind: 'test',
        title: 'acme-race',
        body: 'retention',
        createdAt: new Date(Date.now() - (NOTIFICATION_RETENTION_DAYS + 1) * DAY),
      },
    });
    const sweep = new pg.Client({ connectionString: primaryUrl });
    const mover = new pg.Client({ connectionString: primaryUrl });
    await Promise.all([sweep.connect(), mover.connect()]);
    const moverPid = (await mover.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    try {
      await sweep.query('BEGIN');
      await sweep.query(pruneNotificationsStatement.text, [NOTIFICATION_RETENTION_DAYS, MAX_NOTIFICATIONS_PER_ORG]);
      // The move's switch to read-only (server/moves/workflow.ts) waits for the sweep to commit…
      const switched = mover.query(`UPDATE organizations SET status = 'moving' WHERE id = $1 AND status = 'active'`, [
        acmeId,
      ]);
      const waiting = async () =>
        (
          await sweep.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'`,
            [moverPid],
          )
        ).rows[0]!.n;
      await expect.poll(waiting, { timeout: 5_000 }).toBe(1);
      await sweep.query('COMMIT');
      expect((await switched).rowCount).toBe(1);
      // …so the export that follows reads no row the sweep deletes after it.
      expect(await db.notification.count({ where: { orgId: acmeId, title: 'acme-race' } })).toBe(0);
    } finally {
      await db.organization.update({ where: { id: acmeId }, data: { status: 'active' } });
      await Promise.all([sweep.end(), mover.end()]);
    }
  });
});
