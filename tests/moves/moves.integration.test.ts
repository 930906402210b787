// Workspace moves against a real primary + replicas, the directory over real HTTP
// (signed cell calls) and real workflow workers: a full move of acme from sfo1 to lax1 with the
// read-only window observed from outside, a cancel before the handover, a row tampered with
// between export and verify, and the refusals (unknown slug or region, a region the organization
// may not use, a second move at once, a cancel after the handover).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, rest, type RestResponse } from '../../dev/testing/app';
import { waitForReplay } from '../../dev/testing/db';
import { primary } from '../../server/db/client';
import { openChunk, type Manifest, type RowChunk } from '../../server/moves/bundle';
import { lookUpWorkspace } from '../../server/directory/workspace-lookup';
import { failRun } from '../../server/worker/workers';
import type { Workers } from '../../server/worker/workers';
import {
  cookieOf,
  ended,
  FAST,
  moveEnvironment,
  chunksOf,
  moveState,
  setEnv,
  startMove,
  stepDone,
  waitForMove,
  workers,
  type MoveBody,
  type MoveEnv,
} from './harness';

type Err = { error: { code: string; message: string; region?: string; base_url?: string } };

let env: MoveEnv;
let running: Workers[] = [];

beforeAll(async () => {
  env = await moveEnvironment('moves');
});

afterEach(async () => {
  await Promise.all(running.map((w) => w.stop({ graceful: true })));
  running = [];
});

afterAll(async () => {
  await env?.closeDirectory();
});

async function work(...regions: string[]) {
  running.push(await workers(env.urls, regions));
}

const keyOf = (org: string, region: string) =>
  env.credentials.api_keys.find((k) => k.org === org && k.region === region)!.key;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('refusals', () => {
  it('answers unknown slugs, unknown or malformed regions and disallowed targets with codes', async () => {
    const post = (body: unknown) => rest<Err>('POST', '/v1/atlas/moves', { headers: { cookie: env.ops }, body });
    const unknown = await post({ slug: 'no-such-workspace', to_region: 'lax1' });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
    const region = await post({ slug: 'acme', to_region: 'zzz9' });
    expect([region.status, region.body.error.code]).toEqual([400, 'invalid_region']);
    const malformed = await post({ slug: 'acme', to_region: 'LAX' });
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'invalid_request']);
    const badSlug = await post({ slug: '-acme', to_region: 'lax1' });
    expect([badSlug.status, badSlug.body.error.code]).toEqual([400, 'invalid_request']);
    // acme may use sfo1 only: the operator is told how to allow the target.
    const notAllowed = await post({ slug: 'acme', to_region: 'lax1' });
    expect([notAllowed.status, notAllowed.body.error.code]).toEqual([403, 'region_not_allowed']);
    expect(notAllowed.body.error.message).toMatch(/allowed_regions/);
    const same = await post({ slug: 'globex', to_region: 'sfo1' });
    expect([same.status, same.body.error.code]).toEqual([409, 'conflict']);
    // Customers never reach Atlas.
    const alice = await cookieOf('alice@acme.test', 'acme');
    const customer = await rest<Err>('POST', '/v1/atlas/moves', {
      headers: { cookie: alice },
      body: { slug: 'acme', to_region: 'sfo1' },
    });
    expect([customer.status, customer.body.error.code]).toEqual([403, 'forbidden']);
    expect(await primary().workspaceMove.count()).toBe(0);
  });
});

describe('a full move of acme from sfo1 to lax1', () => {
  let moveId: string;
  const CHUNK = 1024;

  it('holds the workspace read-only, waits for its runs, verifies every table and hands over', async () => {
    const acme = await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } });
    const alice = await cookieOf('alice@acme.test', 'acme');
    const sfo1 = 'sfo1.localhost:3000';
    const lax1 = 'lax1.localhost:3000';
    // The test allows lax1 for acme (the operator's step the refusal above names).
    const allow = await rest('PATCH', `/v1/atlas/organizations/${acme.id}`, {
      headers: { cookie: env.ops },
      body: { allowed_regions: ['sfo1', 'lax1'] },
    });
    expect(allow.status, JSON.stringify(allow.body)).toBe(200);

    const projectsBefore = await rest<{ data: { id: string }[] }>('GET', '/v1/projects?limit=200', {
      headers: { cookie: alice },
      host: sfo1,
    });
    expect(projectsBefore.status).toBe(200);

    // A run in flight when the move starts: the move waits for it.
    const project = projectsBefore.body.data[0]!.id;
    const create = await rest<{ run_id: string }>('POST', '/v1/compute/clusters', {
      headers: { cookie: alice },
      host: sfo1,
      body: { name: 'before-the-move', project_id: project, template: 'k8s-small', node_count: 1 },
    });
    expect(create.status, JSON.stringify(create.body)).toBe(202);

    // Only the source's workers: the move stops after the export, its verify queued at lax1.
    // Chunks of the smallest size: acme's bundle takes many, each bounded.
    setEnv({ MOVE_CHUNK_BYTES: String(CHUNK) });
    await work('sfo1');
    const started = await startMove(env.ops, 'acme', 'lax1');
    moveId = started.id;
    expect(started.id).toMatch(/^mov_[0-9A-Za-z]{26}$/);
    expect(started.steps.map((s) => s.name)).toEqual([
      'offer',
      'read_only',
      'drain_runs',
      'export',
      'verify',
      'handover',
      'purge',
    ]);
    const exported = await waitForMove(moveId, stepDone('export'));
    expect(exported.move.status).toBe('copying');
    // The bulk verify waiting at lax1 has its own expiry (MOVE_BULK_STEP_TIMEOUT_SECONDS), not the queue's.
    const verifyJob = await primary().$queryRaw<{ expire: number }[]>`
      SELECT extract(epoch FROM expire_in)::int AS expire FROM pgboss.job
       WHERE name = 'workflow-lax1' AND data->>'runId' = ${exported.move.runId} AND state = 'created'`;
    expect(verifyJob).toEqual([{ expire: Number(FAST.MOVE_BULK_STEP_TIMEOUT_SECONDS) }]);
    // This export's chunks (an attempt the queue gave up on under load may have left its own).
    const stored = await primary().workspaceMoveChunk.findMany({
      where: { moveId, exportId: exported.move.exportId! },
      orderBy: { seq: 'asc' },
    });
    expect(stored.map((c) => c.seq)).toEqual([...Array(stored.length).keys()]);
    expect(exported.move.bundleChunks).toBe(stored.length);
    const manifest = openChunk<Manifest>(Buffer.from(stored[0]!.bytes), moveId, exported.move.exportId!, 0);
    expect(manifest.chunks).toBe(stored.length - 1);
    let rowsInChunks = 0;
    for (const c of stored.slice(1)) {
      const chunk = openChunk<RowChunk>(Buffer.from(c.bytes), moveId, exported.move.exportId!, c.seq);
      rowsInChunks += chunk.rows.length;
      // Within the limit, unless one row alone is larger.
      if (chunk.rows.length > 1) expect(Buffer.byteLength(JSON.stringify(chunk.rows))).toBeLessThanOrEqual(CHUNK + 2);
    }
    const exportedRows = manifest.tables.reduce((n, t) => n + t.count, 0);
    expect(rowsInChunks).toBe(exportedRows);
    expect(stored.length).toBeGreaterThan(manifest.tables.filter((t) => t.count > 0).length + 1);

    // The cluster's run finished before the export began.
    const clusterRun = await primary().workflowRun.findUniqueOrThrow({ where: { id: create.body.run_id } });
    expect(clusterRun.status).toBe('succeeded');
    const exportStep = exported.steps.find((s) => s.name === 'export')!;
    expect(clusterRun.finishedAt!.getTime()).toBeLessThanOrEqual(exportStep.startedAt!.getTime());

    // Read-only on every door; reads go on; the directory says what it says of any workspace.
    const mutation = await rest<Err>('POST', '/v1/projects', {
      headers: { cookie: alice },
      host: sfo1,
      body: { name: 'during-the-move' },
    });
    expect([mutation.status, mutation.body.error.code]).toEqual([503, 'workspace_moving']);
    expect(mutation.headers.get('retry-after')).toBe('120');
    const byKey = await rest<Err>('POST', '/v1/compute/clusters', {
      headers: bearer(keyOf('acme', 'sfo1')),
      host: sfo1,
      body: { name: 'during-the-move', project_id: project, template: 'k8s-small', node_count: 1 },
    });
    expect([byKey.status, byKey.body.error.code]).toEqual([503, 'workspace_moving']);
    // The tRPC door (the browser's), through the same middleware.
    const trpc = callerFor({ url: 'http://sfo1.localhost:3000/', headers: { cookie: alice } });
    await expect(trpc.api.projects.create({ name: 'during-the-move' })).rejects.toMatchObject({
      cause: { code: 'workspace_moving' },
    });
    expect(trpc.responseHeaders.get('retry-after')).toBe('120');
    expect((await trpc.api.projects.list({ limit: 5 })).data.length).toBeGreaterThan(0);
    const readWhileMoving = await rest<{ data: unknown[] }>('GET', '/v1/projects?limit=200', {
      headers: { cookie: alice },
      host: sfo1,
    });
    expect(readWhileMoving.status).toBe(200);
    expect(readWhileMoving.body.data.length).toBe(projectsBefore.body.data.length);
    expect(await lookUpWorkspace('acme')).toMatchObject({ region: 'sfo1', status: 'active' });

    // bob belongs to acme and globex: his settings are in acme's bundle, so a change made while
    // acting in globex waits too (else it would fail acme's verify).
    const bobInGlobex = await cookieOf('bob@globex.test', 'globex');
    const settings = await rest<Err>('PATCH', '/v1/me/settings', {
      headers: { cookie: bobInGlobex },
      host: sfo1,
      body: { theme: 'dark' },
    });
    expect([settings.status, settings.body.error?.code]).toEqual([503, 'workspace_moving']);
    expect(settings.body.error.message).toMatch(/acme/);
    expect(settings.headers.get('retry-after')).toBe('120');
    // Someone in no moving workspace changes theirs as before.
    const opsSettings = await rest('PATCH', '/v1/me/settings', {
      headers: { cookie: env.ops },
      body: { theme: 'dark' },
    });
    expect(opsSettings.status, JSON.stringify(opsSettings.body)).toBe(200);

    // The target's workers take verify and handover; the source's the purge.
    await work('lax1');
    const done = await waitForMove(moveId, ended);
    expect(done.move.status, done.move.error ?? '').toBe('completed');
    expect(done.steps.every((s) => s.status === 'succeeded')).toBe(true);
    const settingsAfter = await rest('PATCH', '/v1/me/settings', {
      headers: { cookie: bobInGlobex },
      host: sfo1,
      body: { theme: 'dark' },
    });
    expect(settingsAfter.status, JSON.stringify(settingsAfter.body)).toBe(200);

    const detail = await rest<MoveBody>('GET', `/v1/atlas/moves/${moveId}`, { headers: { cookie: env.ops } });
    expect(detail.status).toBe(200);
    expect(detail.body.tables.length).toBe(16);
    for (const t of detail.body.tables) {
      expect(t.match, t.name).toBe(true);
      expect(t.verified_count, t.name).toBe(t.count);
    }
    const count = (name: string) => detail.body.tables.find((t) => t.name === name)!.count;
    expect(count('projects')).toBe(projectsBefore.body.data.length);
    expect(count('clusters')).toBe(await primary().cluster.count({ where: { orgId: acme.id } }));
    expect(detail.body.read_only.seconds).toBeGreaterThan(0);
    delete process.env.MOVE_CHUNK_BYTES;
    setEnv({});
    expect(detail.body.cancellable).toBe(false);
    expect(done.move.bundleBytes).toBeGreaterThan(0);
    expect(await chunksOf(moveId)).toBe(0);

    // The directory sends acme's people to lax1.
    expect(await lookUpWorkspace('acme')).toMatchObject({ region: 'lax1', status: 'active' });
    await waitForReplay(env.urls.primary, env.urls.replicas.lax1!);
    await waitForReplay(env.urls.primary, env.urls.replicas.sfo1!);

    // The old sfo1 key: 421 naming lax1 (after the secret check: a wrong secret stays 401).
    const old = await rest<Err>('GET', '/v1/projects', { headers: bearer(keyOf('acme', 'sfo1')), host: sfo1 });
    expect([old.status, old.body.error.code, old.body.error.region, old.body.error.base_url]).toEqual([
      421,
      'wrong_region',
      'lax1',
      'http://lax1.localhost:3000',
    ]);
    const forged = keyOf('acme', 'sfo1').replace(/.{4}$/, 'AAAA');
    expect((await rest('GET', '/v1/projects', { headers: bearer(forged), host: sfo1 })).status).toBe(401);

    // alice's session at the old region is over: 421 naming the new home.
    const oldSession = await rest<Err>('GET', '/v1/projects', { headers: { cookie: alice }, host: sfo1 });
    expect([oldSession.status, oldSession.body.error.code, oldSession.body.error.base_url]).toEqual([
      421,
      'wrong_region',
      'http://lax1.localhost:3000',
    ]);

    // The sign-in hand-over to the global address: no code is made at the region acme left.
    const { GET: issueGet, POST: issuePost } = await import('../../app/sign-in/handoff/issue/route');
    const state = 's'.repeat(43);
    const issueAt = (host: string, method: 'GET' | 'POST') =>
      (method === 'GET' ? issueGet : issuePost)(
        new Request(`http://${host}/sign-in/handoff/issue${method === 'GET' ? `?state=${state}&next=%2Farc` : ''}`, {
          method,
          headers: {
            host,
            cookie: alice,
            origin: `http://${host}`,
            ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          body: method === 'POST' ? `state=${state}&next=%2Farc` : undefined,
        }),
      );
    const handoffsBefore = await primary().sessionHandoff.count();
    const oldGet = await issueAt(sfo1, 'GET');
    expect([oldGet.status, oldGet.headers.get('location')]).toEqual([
      303,
      `http://lax1.localhost:3000/sign-in/handoff/issue?state=${state}&next=%2Farc`,
    ]);
    const oldPost = await issueAt(sfo1, 'POST');
    const oldPostBody = (await oldPost.json()) as Err;
    expect([oldPost.status, oldPostBody.error.code, oldPostBody.error.base_url]).toEqual([
      421,
      'wrong_region',
      'http://lax1.localhost:3000',
    ]);
    expect(await primary().sessionHandoff.count()).toBe(handoffsBefore);
    // At its new home: the GET is a page that POSTs (nothing written), the POST makes the code.
    const page = await issueAt(lax1, 'GET');
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<form id="handoff" method="post" action="\/sign-in\/handoff\/issue">/);
    expect(await primary().sessionHandoff.count()).toBe(handoffsBefore);
    const code = await issueAt(lax1, 'POST');
    expect(code.status).toBe(303);
    expect(code.headers.get('location')).toMatch(/^http:\/\/localhost:3000\/sign-in\/handoff\/finish\?code=/);
    expect(await primary().sessionHandoff.count()).toBe(handoffsBefore + 1);
    // A POST from another site (no Origin of ours) is refused.
    const crossSite = await issuePost(
      new Request(`http://${lax1}/sign-in/handoff/issue`, {
        method: 'POST',
        headers: {
          host: lax1,
          cookie: alice,
          origin: 'http://evil.example',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: `state=${state}`,
      }),
    );
    expect(crossSite.status).toBe(403);

    // At lax1 alice sees all her projects, writes again, and makes a lax1 key that works.
    const projectsAfter = await rest<{ data: { id: string }[] }>('GET', '/v1/projects?limit=200', {
      headers: { cookie: alice },
      host: lax1,
    });
    expect(projectsAfter.status).toBe(200);
    expect(projectsAfter.body.data.map((p) => p.id).sort()).toEqual(projectsBefore.body.data.map((p) => p.id).sort());
    const key = await rest<{ key: string }>('POST', '/v1/api-keys', {
      headers: { cookie: alice },
      host: lax1,
      body: { name: 'after-the-move' },
    });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    expect(key.body.key).toMatch(/^mk_lax1_/);
    const withNewKey = await rest<{ data: unknown[] }>('GET', '/v1/projects?limit=200', {
      headers: bearer(key.body.key),
      host: lax1,
    });
    expect(withNewKey.status).toBe(200);
    const write = await rest('POST', '/v1/projects', {
      headers: bearer(key.body.key),
      host: lax1,
      body: { name: 'moved' },
    });
    expect(write.status).toBe(201);
    // A new key for the region acme left would be valid there: refused, wherever it is asked for.
    const oldRegionKey = await rest<Err>('POST', '/v1/api-keys', {
      headers: { cookie: alice, 'x-region': 'sfo1' },
      body: { name: 'for-the-old-region' },
    });
    expect([oldRegionKey.status, oldRegionKey.body.error?.code, oldRegionKey.body.error?.region]).toEqual([
      403,
      'region_not_allowed',
      'lax1',
    ]);
    expect(await primary().apiKey.count({ where: { orgId: acme.id, name: 'for-the-old-region' } })).toBe(0);
    // Her clusters are compute in sfo1 and stay there (docs/flows/moves.md): all of them are
    // listed where the request names sfo1.
    const clusters = await rest<{ data: { id: string }[] }>('GET', '/v1/compute/clusters?limit=200', {
      headers: { cookie: alice, 'x-region': 'sfo1' },
    });
    expect(clusters.status).toBe(200);
    const live = await primary().cluster.findMany({ where: { orgId: acme.id, status: { not: 'deleted' } } });
    expect(clusters.body.data.map((c) => c.id).sort()).toEqual(live.map((c) => c.id).sort());

    const org = await primary().organization.findUniqueOrThrow({ where: { id: acme.id } });
    expect([org.status, org.homeRegion, org.defaultRegion]).toEqual(['active', 'lax1', 'lax1']);
    // The routing policy follows the workspace: a version by the system, in the handover.
    const policy = await primary().routingPolicy.findFirstOrThrow({
      where: { orgId: acme.id },
      orderBy: [{ epoch: 'desc' }, { sequence: 'desc' }],
    });
    expect(policy).toMatchObject({ publishedBy: null, content: { primary_region: 'lax1' } });
    expect(policy.reason).toMatch(/workspace move/);
  }, 90_000);

  it('cannot be cancelled after the handover (only a move back)', async () => {
    const res = await rest<Err>('POST', `/v1/atlas/moves/${moveId}/cancel`, { headers: { cookie: env.ops }, body: {} });
    expect([res.status, res.body.error.code]).toEqual([409, 'conflict']);
  });

  it('lists moves newest first', async () => {
    const list = await rest<{ data: MoveBody[] }>('GET', '/v1/atlas/moves', { headers: { cookie: env.ops } });
    expect(list.status).toBe(200);
    expect(list.body.data[0]!.id).toBe(moveId);
  });
});

describe('a move that does not happen', () => {
  beforeAll(async () => {
    // The demo seeds globex runs in flight in every region: let them finish, or each move waits.
    await work('sfo1', 'lax1', 'ams1');
    const org = await primary().organization.findUniqueOrThrow({ where: { slug: 'globex' } });
    const deadline = Date.now() + 30_000;
    while (
      (await primary().workflowRun.count({ where: { orgId: org.id, status: { in: ['queued', 'running'] } } })) > 0
    ) {
      if (Date.now() > deadline) throw new Error('globex runs never finished');
      await new Promise((r) => setTimeout(r, 100));
    }
    await Promise.all(running.map((w) => w.stop({ graceful: true })));
    running = [];
  }, 60_000);
  const bobMutation = async (): Promise<RestResponse<Err>> => {
    const bob = await cookieOf('bob@globex.test', 'globex');
    return rest<Err>('POST', '/v1/projects', {
      headers: { cookie: bob },
      host: 'sfo1.localhost:3000',
      body: { name: `p-${Date.now().toString(36)}` },
    });
  };
  const globexUnchanged = async () => {
    const org = await primary().organization.findUniqueOrThrow({ where: { slug: 'globex' } });
    expect([org.status, org.homeRegion]).toEqual(['active', null]);
    expect(await lookUpWorkspace('globex')).toMatchObject({ region: 'sfo1', status: 'active' });
    const ws = await primary().directoryWorkspace.findUniqueOrThrow({ where: { slug: 'globex' } });
    expect([ws.region, ws.offeredTo]).toEqual(['sfo1', null]);
    expect(await primary().apiKey.count({ where: { orgId: org.id, movedTo: { not: null } } })).toBe(0);
    expect((await bobMutation()).status).toBe(201);
  };

  it('a cancel before the handover puts the workspace back, read-write at the source', async () => {
    await work('sfo1');
    const m = await startMove(env.ops, 'globex', 'lax1');
    await waitForMove(m.id, stepDone('export'));
    expect((await bobMutation()).status).toBe(503);
    // A second move of the same workspace meanwhile: 409.
    const second = await rest<Err>('POST', '/v1/atlas/moves', {
      headers: { cookie: env.ops },
      body: { slug: 'globex', to_region: 'ams1' },
    });
    expect([second.status, second.body.error.code]).toEqual([409, 'conflict']);
    const cancel = await rest<MoveBody>('POST', `/v1/atlas/moves/${m.id}/cancel`, {
      headers: { cookie: env.ops },
      body: {},
    });
    expect(cancel.status).toBe(202);
    expect(cancel.body.cancellable).toBe(false);
    await work('lax1');
    const done = await waitForMove(m.id, ended);
    expect(done.move.status).toBe('cancelled');
    expect(await chunksOf(m.id)).toBe(0);
    expect(done.steps.find((s) => s.name === 'verify')!.status).toBe('skipped');
    expect(done.steps.find((s) => s.name === 'handover')!.startedAt).toBeNull();
    await globexUnchanged();
    const again = await rest<Err>('POST', `/v1/atlas/moves/${m.id}/cancel`, { headers: { cookie: env.ops }, body: {} });
    expect([again.status, again.body.error.code]).toEqual([409, 'conflict']);
  }, 60_000);

  it('a row tampered with between export and verify fails the move: nothing moved', async () => {
    await work('sfo1');
    const m = await startMove(env.ops, 'globex', 'lax1');
    await waitForMove(m.id, stepDone('export'));
    const org = await primary().organization.findUniqueOrThrow({ where: { slug: 'globex' } });
    const victim = await primary().project.findFirstOrThrow({ where: { orgId: org.id }, orderBy: { id: 'asc' } });
    await primary().project.update({ where: { id: victim.id }, data: { name: `${victim.name}-tampered` } });
    await work('lax1');
    const done = await waitForMove(m.id, ended);
    expect(done.move.status).toBe('failed');
    expect(done.move.error).toMatch(/projects \(exported \d+, found \d+, digests differ\)/);
    const tables = done.move.tables as { name: string; match: boolean }[];
    expect(tables.filter((t) => !t.match).map((t) => t.name)).toEqual(['projects']);
    expect(done.steps.find((s) => s.name === 'verify')!.status).toBe('failed');
    expect(done.move.handoverAt).toBeNull();
    await globexUnchanged();
  }, 60_000);
  it('a directory that refuses the handover for good fails the move and puts it back', async () => {
    await work('sfo1');
    const m = await startMove(env.ops, 'globex', 'lax1');
    await waitForMove(m.id, stepDone('export'));
    // The offer is gone from the directory (say, withdrawn by hand): the accept can never succeed.
    await primary().directoryWorkspace.update({
      where: { slug: 'globex' },
      data: { status: 'active', offeredTo: null, offerId: null, offeredAt: null },
    });
    await work('lax1');
    const done = await waitForMove(m.id, ended);
    expect(done.move.status).toBe('failed');
    expect(done.move.error).toMatch(/the directory refused the handover \(forbidden: .*not offered.*nothing moved/);
    expect(done.move.handoverAt).toBeNull();
    expect(done.steps.find((s) => s.name === 'handover')!.status).toBe('failed');
    expect(await chunksOf(m.id)).toBe(0);
    await globexUnchanged();
  }, 60_000);
});

describe('a move past its handover whose run ends', () => {
  const realDirectory = () => process.env.MERIDIAN_DIRECTORY_URL!;
  const stopWorkers = async () => {
    await Promise.all(running.map((w) => w.stop({ graceful: true })));
    running = [];
  };
  /** Runs the move up to a handover the directory can't be reached for, then stops the workers. */
  async function stuckInHandover(from: string, to: string) {
    await work(from);
    const m = await startMove(env.ops, 'globex', to);
    await waitForMove(m.id, stepDone('export'));
    const directory = realDirectory();
    setEnv({ MERIDIAN_DIRECTORY_URL: 'http://127.0.0.1:9' }); // nothing listens there
    try {
      await work(to);
      await waitForMove(
        m.id,
        (mv, steps) =>
          !!mv.handoverAt &&
          /has not taken the handover/.test(
            (steps.find((st) => st.name === 'handover') as { error?: string | null } | undefined)?.error ?? '',
          ),
      );
      await stopWorkers();
    } catch (e) {
      setEnv({ MERIDIAN_DIRECTORY_URL: directory });
      throw e;
    }
    return { move: m, restore: () => setEnv({ MERIDIAN_DIRECTORY_URL: directory }) };
  }
  // What the dead-letter queue does when the step's workers kept dying (server/worker/workers.ts).
  const deadLetter = (runId: string) =>
    failRun(primary(), runId, 5, 'the worker running this step stopped responding 5 times');
  const bobWrites = async (region: string) =>
    (
      await rest('POST', '/v1/projects', {
        headers: { cookie: await cookieOf('bob@globex.test', 'globex') },
        host: `${region}.localhost:3000`,
        body: { name: `p-${Date.now().toString(36)}` },
      })
    ).status;

  it('is completed where the directory took the workspace: writable there, the bundle deleted', async () => {
    const { move, restore } = await stuckInHandover('sfo1', 'lax1');
    restore(); // the directory is back when the run ends
    await deadLetter(move.run_id);
    const after = await moveState(move.id);
    expect([after.status, after.writableAt !== null]).toEqual(['completed', true]);
    expect(after.error).toMatch(/the run ended after the handover .*writable in lax1/);
    expect(await chunksOf(move.id)).toBe(0);
    const org = await primary().organization.findUniqueOrThrow({ where: { slug: 'globex' } });
    expect([org.status, org.homeRegion]).toEqual(['active', 'lax1']);
    expect(await lookUpWorkspace('globex')).toMatchObject({ region: 'lax1', status: 'active' });
    await waitForReplay(env.urls.primary, env.urls.replicas.lax1!);
    expect(await bobWrites('lax1')).toBe(201);
  }, 60_000);

  it('stays read-only while the directory cannot be asked, and an operator settles it after', async () => {
    const { move, restore } = await stuckInHandover('lax1', 'sfo1');
    try {
      await deadLetter(move.run_id);
    } finally {
      restore();
    }
    const after = await moveState(move.id);
    expect(after.status).toBe('failed');
    expect(after.error).toContain(`npm run move -- --settle ${move.id}`);
    expect(await chunksOf(move.id)).toBe(0);
    const org = await primary().organization.findUniqueOrThrow({ where: { slug: 'globex' } });
    expect(org.status).toBe('moving');

    const { execFile } = await import('node:child_process');
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/move.ts', '--settle', move.id],
        { env: { ...process.env, DATABASE_URL: env.urls.primary, LOG_LEVEL: 'silent' }, timeout: 60_000 },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(out.stdout).toMatch(/^globex: completed/);
    const settled = await primary().organization.findUniqueOrThrow({ where: { slug: 'globex' } });
    expect([settled.status, settled.homeRegion]).toEqual(['active', 'sfo1']);
    expect(await lookUpWorkspace('globex')).toMatchObject({ region: 'sfo1', status: 'active' });
    await waitForReplay(env.urls.primary, env.urls.replicas.sfo1!);
    expect(await bobWrites('sfo1')).toBe(201);
  }, 90_000);
});

describe('npm run move', () => {
  it('starts a move, prints its steps as they go and ends completed', async () => {
    await work('sfo1', 'ams1');
    const { execFile } = await import('node:child_process');
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/move.ts', 'globex', '--to', 'ams1', '--by', 'ops@meridian.test'],
        { env: { ...process.env, DATABASE_URL: env.urls.primary, LOG_LEVEL: 'silent' }, timeout: 60_000 },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(out.stdout).toMatch(/^moving globex: sfo1 → ams1 \(mov_[0-9A-Za-z]{26}, run run_/);
    expect(out.stdout).toMatch(/ {2}export +succeeded/);
    expect(out.stdout).toMatch(/\ncompleted \(read-only \d+\.\d\d s\)/);
    expect(out.stdout).toMatch(/ {2}projects +\d+ rows +[0-9a-f]{16} +match/);
    expect(await lookUpWorkspace('globex')).toMatchObject({ region: 'ams1', status: 'active' });
    // Usage errors are refused before anything is written.
    const bad = await new Promise<number>((resolve) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/move.ts', 'globex'],
        { env: { ...process.env, DATABASE_URL: env.urls.primary } },
        (err) => resolve(err ? ((err as { code?: number }).code ?? 1) : 0),
      ),
    );
    expect(bad).toBe(2);
  }, 90_000);
});

describe('a step that fails for a while', () => {
  it('is retried with backoff (export and verify each fail once) and the move ends the same', async () => {
    setEnv({ WORKFLOW_FAULTS: 'export:1,verify:1' });
    try {
      await work('ams1', 'sfo1'); // globex is at ams1 since the CLI's move
      const m = await startMove(env.ops, 'globex', 'sfo1');
      const done = await waitForMove(m.id, ended, 60_000);
      expect(done.move.status, done.move.error ?? '').toBe('completed');
      const attempts = Object.fromEntries(done.steps.map((s) => [s.name, s.attempts]));
      expect(attempts).toMatchObject({ export: 2, verify: 2, handover: 1 });
      expect((done.move.tables as { match: boolean }[]).every((t) => t.match)).toBe(true);
      expect(await lookUpWorkspace('globex')).toMatchObject({ region: 'sfo1', status: 'active' });
    } finally {
      setEnv({ WORKFLOW_FAULTS: '' });
    }
  }, 90_000);
});
