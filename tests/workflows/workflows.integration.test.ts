// The workflow orchestrator against a real primary: runs advance step by step through the
// pg-boss queue, retry a failing step with backoff, fail with a reason, release servers on
// delete, and pick up where they stopped after the worker process is killed mid-step.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../server/db/client';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { waitForReplay } from '../../dev/testing/db';
import { startWorkers, type Workers } from '../../server/worker/workers';
import { FAST_WORKFLOWS, setEnv } from '../../dev/testing/workflow-env';

let urls: { primary: string; replicas: Record<string, string> };
let aliceCookie: string;
let aliceId: string;
let projectId: string;
let workers: Workers | undefined;

async function startIn(vars: Record<string, string> = {}) {
  setEnv({ ...FAST_WORKFLOWS, ...vars });
  workers = await startWorkers({ connectionString: urls.primary, regions: ['sfo1'] });
}

afterEach(async () => {
  await workers?.stop({ graceful: true }); // finish the step in hand: no job left half-done for the next test
  workers = undefined;
  setEnv(FAST_WORKFLOWS);
});

beforeAll(async () => {
  setEnv(FAST_WORKFLOWS);
  ({ urls } = await useDemoDatabase('workflows'));
  const alice = await primary().user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
  const acme = await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } });
  aliceId = alice.id;
  aliceCookie = await sessionCookie(alice.id, acme.id);
  projectId = (await primary().project.findFirstOrThrow({ where: { orgId: acme.id } })).id;
});

afterAll(() => setEnv({ WORKFLOW_FAULTS: '' }));

let seq = 0;
async function createCluster(nodeCount = 3, template = 'k8s-small') {
  const res = await rest<{ cluster: { id: string; status: string }; run_id: string }>('POST', '/v1/compute/clusters', {
    headers: { cookie: aliceCookie },
    body: { name: `wf-${Date.now().toString(36)}-${seq++}`, project_id: projectId, template, node_count: nodeCount },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body;
}

async function waitForRun(runId: string, done: (status: string) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await primary().workflowRun.findUniqueOrThrow({
      where: { id: runId },
      include: { steps: { orderBy: { position: 'asc' } } },
    });
    if (done(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}: ${JSON.stringify(run.steps)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const finished = (s: string) => s === 'succeeded' || s === 'failed';

describe('create-cluster', () => {
  it('advances through the named steps to ready, allocates servers over zones, and notifies', async () => {
    const { cluster, run_id } = await createCluster(3);
    expect(cluster.status).toBe('pending');
    await startIn();
    const run = await waitForRun(run_id, finished);
    expect(run.status, run.error ?? '').toBe('succeeded');
    expect(run.steps.map((s) => [s.name, s.status, s.attempts])).toEqual([
      ['validate', 'succeeded', 1],
      ['allocate_servers', 'succeeded', 1],
      ['bootstrap_control_plane', 'succeeded', 1],
      ['join_workers', 'succeeded', 1],
      ['ready', 'succeeded', 1],
    ]);
    // Steps ran in order, each after the one before.
    for (let i = 1; i < run.steps.length; i++) {
      expect(run.steps[i]!.startedAt!.getTime()).toBeGreaterThanOrEqual(run.steps[i - 1]!.finishedAt!.getTime());
    }
    const c = await primary().cluster.findUniqueOrThrow({ where: { id: cluster.id } });
    expect(c.status).toBe('ready');
    expect(c.readyAt).not.toBeNull();
    // Stamped with its allocations (no longer a promise to the capacity check), before it was ready.
    expect(c.allocatedAt).not.toBeNull();
    expect(c.allocatedAt!.getTime()).toBeLessThanOrEqual(c.readyAt!.getTime());
    const allocs = await primary().allocation.findMany({ where: { clusterId: cluster.id }, include: { server: true } });
    expect(allocs).toHaveLength(3);
    expect(allocs.filter((a) => a.role === 'control_plane')).toHaveLength(1);
    expect(allocs.every((a) => a.server.status === 'allocated' && a.server.region === 'sfo1')).toBe(true);
    expect(new Set(allocs.map((a) => a.server.zone)).size).toBe(2);
    const note = await primary().notification.findFirst({ where: { resourceId: cluster.id, kind: 'cluster.ready' } });
    expect(note?.userId).toBe(aliceId);
  });

  it('starts at once on NOTIFY and chains its steps without waiting for a poll', async () => {
    await startIn({ WORKFLOW_POLL_SECONDS: '30' }); // polling alone would take up to 30 s per step
    await new Promise((r) => setTimeout(r, 1_000)); // the workers' first fetch is done: idle now
    const { run_id } = await createCluster(1);
    const run = await waitForRun(run_id, finished, 8_000);
    expect(run.status).toBe('succeeded');
    // Well inside one poll (30 s): the notification started it, with room for a loaded machine.
    expect(run.startedAt!.getTime() - run.createdAt.getTime()).toBeLessThan(5_000);
  });

  it('runs several at once: every one allocates its own servers (no two share one)', async () => {
    const runs = await Promise.all(Array.from({ length: 6 }, () => createCluster(1)));
    await startIn();
    const done = await Promise.all(runs.map((r) => waitForRun(r.run_id, finished)));
    expect(done.map((r) => [r.status, r.error])).toEqual(done.map(() => ['succeeded', null]));
    const allocs = await primary().allocation.findMany({
      where: { clusterId: { in: runs.map((r) => r.cluster.id) }, releasedAt: null },
    });
    expect(allocs).toHaveLength(6);
    expect(new Set(allocs.map((a) => a.serverId)).size).toBe(6);
  });

  it('retries a failing step with backoff and then finishes', async () => {
    const { run_id } = await createCluster(1);
    await startIn({ WORKFLOW_FAULTS: 'bootstrap_control_plane:2' });
    const run = await waitForRun(run_id, finished);
    expect(run.status).toBe('succeeded');
    const step = run.steps.find((s) => s.name === 'bootstrap_control_plane')!;
    expect(step.attempts).toBe(3);
    expect(step.error).toBeNull();
    expect(run.steps.filter((s) => s.name !== 'bootstrap_control_plane').every((s) => s.attempts === 1)).toBe(true);
    // Backoff: retry delays of at least 1 s then 2 s (pg-boss doubles them) between the attempts.
    expect(step.finishedAt!.getTime() - step.startedAt!.getTime()).toBeGreaterThanOrEqual(2_500);
  });

  it('fails with the reason after the last retry, and gives the servers back', async () => {
    const { cluster, run_id } = await createCluster(2);
    const free = await primary().server.count({ where: { region: 'sfo1', status: 'available' } });
    await startIn({ WORKFLOW_FAULTS: 'join_workers:99', WORKFLOW_RETRY_LIMIT: '1', WORKFLOW_RETRY_DELAY_SECONDS: '0' });
    const run = await waitForRun(run_id, finished);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^join_workers: .*gave up after 2 attempts/);
    expect(run.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'failed', 'skipped']);
    const c = await primary().cluster.findUniqueOrThrow({ where: { id: cluster.id } });
    expect(c.status).toBe('failed');
    expect(c.statusReason).toBe(run.error);
    expect(await primary().allocation.count({ where: { clusterId: cluster.id, releasedAt: null } })).toBe(0);
    expect(c.allocatedAt).toBeNull(); // released with them
    expect(await primary().server.count({ where: { region: 'sfo1', status: 'available' } })).toBe(free);
    const note = await primary().notification.findFirst({ where: { resourceId: cluster.id } });
    expect(note?.kind).toBe('cluster.failed');
  });

  it('fails without retrying when the region has no servers left for it', async () => {
    const { cluster, run_id } = await createCluster(2);
    // Someone else took every server after the API accepted the request.
    const taken = await primary().server.findMany({ where: { region: 'sfo1', status: 'available' } });
    await primary().server.updateMany({
      where: { id: { in: taken.map((s) => s.id) } },
      data: { status: 'maintenance' },
    });
    try {
      await startIn();
      const run = await waitForRun(run_id, finished);
      expect(run.status).toBe('failed');
      expect(run.error).toBe('allocate_servers: not enough available CPU servers in sfo1: 2 needed, 0 free');
      expect(run.steps[1]!.attempts).toBe(1);
      expect((await primary().cluster.findUniqueOrThrow({ where: { id: cluster.id } })).status).toBe('failed');
    } finally {
      await primary().server.updateMany({
        where: { id: { in: taken.map((s) => s.id) } },
        data: { status: 'available' },
      });
    }
  });
});

describe('delete-cluster', () => {
  it('releases the servers and removes the cluster from the API', async () => {
    const { cluster, run_id } = await createCluster(2);
    await startIn();
    await waitForRun(run_id, finished);
    const servers = (await primary().allocation.findMany({ where: { clusterId: cluster.id } })).map((a) => a.serverId);
    const del = await rest<{ cluster: { status: string }; run_id: string }>(
      'DELETE',
      `/v1/compute/clusters/${cluster.id}`,
      { headers: { cookie: aliceCookie } },
    );
    expect(del.status).toBe(202);
    expect(del.body.cluster.status).toBe('deleting');
    expect(del.headers.get('location')).toBe(`/v1/workflow-runs/${del.body.run_id}`);
    const run = await waitForRun(del.body.run_id, finished);
    expect(run.status).toBe('succeeded');
    expect(run.steps.map((s) => s.name)).toEqual([
      'drain_workloads',
      'release_servers',
      'destroy_control_plane',
      'deleted',
    ]);
    const deleted = await primary().cluster.findUniqueOrThrow({ where: { id: cluster.id } });
    expect([deleted.status, deleted.allocatedAt]).toEqual(['deleted', null]);
    const after = await primary().server.findMany({ where: { id: { in: servers } } });
    expect(after.every((s) => s.status === 'available')).toBe(true);
    await waitForReplay(urls.primary, urls.replicas.sfo1!); // the worker's write, not this client's
    const gone = await rest('GET', `/v1/compute/clusters/${cluster.id}`, { headers: { cookie: aliceCookie } });
    expect(gone.status).toBe(404);
  });
});

describe('a worker killed mid-run', () => {
  let child: ChildProcess | undefined;
  afterAll(() => child?.kill('SIGKILL'));

  function spawnWorker(): ChildProcess {
    // node itself (not the tsx launcher), so the PID we kill is the worker's.
    return spawn(process.execPath, ['--import', 'tsx', 'server/worker/main.ts'], {
      env: {
        ...process.env,
        ...FAST_WORKFLOWS,
        WORKFLOW_STEP_MS: '1500',
        DATABASE_URL: urls.primary,
        WORKFLOW_REGIONS: 'sfo1',
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
  }

  it('is picked up where it stopped after a restart: done steps stay done, the step in hand runs again', async () => {
    const { cluster, run_id } = await createCluster(2);
    child = spawnWorker();
    // Wait until the third step (bootstrap_control_plane) is in hand, then kill the worker.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const step = await primary().workflowStep.findUniqueOrThrow({
        where: { runId_position: { runId: run_id, position: 2 } },
      });
      if (step.status === 'running') break;
      if (Date.now() > deadline) throw new Error('the worker never reached step 3');
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    await new Promise((r) => setTimeout(r, 2_000));
    const stalled = await primary().workflowRun.findUniqueOrThrow({ where: { id: run_id } });
    expect(stalled.status).toBe('running'); // nobody is working on it

    child = spawnWorker();
    const run = await waitForRun(run_id, finished, 60_000);
    child.kill('SIGTERM');
    expect(run.status).toBe('succeeded');
    expect(run.steps.map((s) => s.attempts)).toEqual([1, 1, 2, 1, 1]);
    expect(await primary().allocation.count({ where: { clusterId: cluster.id } })).toBe(2);
    expect((await primary().cluster.findUniqueOrThrow({ where: { id: cluster.id } })).status).toBe('ready');
  }, 120_000);
});
