// Workspace moves (issue 12) against a real primary + replicas, the directory over real HTTP
// (signed cell calls) and real workflow workers: a full move of acme from sfo1 to lax1 with the
// read-only window observed from outside, a cancel before the handover, a row tampered with
// between export and verify, and the refusals (unknown slug or region, a region the organization
// may not use, a second move at once, a cancel after the handover).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, rest, type RestResponse } from '../../dev/testing/app';
import { waitForReplay } from '../../dev/testing/db';
import { primary } from '../../server/db/client';
import { resolveWorkspace } from '../../server/directory/resolve';
import type { Workers } from '../../server/workflows/worker';
import {
  cookieOf,
  ended,
  moveEnvironment,
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
    expect(await resolveWorkspace('acme')).toMatchObject({ region: 'sfo1', status: 'active' });

    // The target's workers take verify and handover; the source's the purge.
    await work('lax1');
    const done = await waitForMove(moveId, ended);
    expect(done.move.status, done.move.error ?? '').toBe('completed');
    expect(done.steps.every((s) => s.status === 'succeeded')).toBe(true);

    const detail = await rest<MoveBody>('GET', `/v1/atlas/moves/${moveId}`, { headers: { cookie: env.ops } });
    expect(detail.status).toBe(200);
    expect(detail.body.tables.length).toBe(15);
    for (const t of detail.body.tables) {
      expect(t.match, t.name).toBe(true);
      expect(t.verified_count, t.name).toBe(t.count);
    }
    const count = (name: string) => detail.body.tables.find((t) => t.name === name)!.count;
    expect(count('projects')).toBe(projectsBefore.body.data.length);
    expect(count('clusters')).toBe(await primary().cluster.count({ where: { orgId: acme.id } }));
    expect(detail.body.read_only.seconds).toBeGreaterThan(0);
    expect(detail.body.cancellable).toBe(false);
    expect(done.move.bundleBytes).toBeGreaterThan(0);
    expect((await primary().workspaceMove.findUniqueOrThrow({ where: { id: moveId } })).bundle).toBeNull();

    // The directory sends acme's people to lax1.
    expect(await resolveWorkspace('acme')).toMatchObject({ region: 'lax1', status: 'active' });
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
    // Her clusters are compute in sfo1 and stay there (README, Workspace moves): all of them are
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
    expect(await resolveWorkspace('globex')).toMatchObject({ region: 'sfo1', status: 'active' });
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
    expect((await primary().workspaceMove.findUniqueOrThrow({ where: { id: m.id } })).bundle).toBeNull();
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
    expect(await resolveWorkspace('globex')).toMatchObject({ region: 'ams1', status: 'active' });
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
      expect(await resolveWorkspace('globex')).toMatchObject({ region: 'sfo1', status: 'active' });
    } finally {
      setEnv({ WORKFLOW_FAULTS: '' });
    }
  }, 90_000);
});
