// A workspace move with the primary down under it (the real app and topology of the fault
// suite): the primary stops while the move's verify is in hand (the target's replica paused, so
// the step is waiting), comes back, and the move carries on to the same end as without the
// outage: completed, every table matched, the directory at the target, nothing half-switched in
// between (while the primary was down the workspace stayed read-only at the source).
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { EmbeddedTopology } from '../../dev/embedded-pg/servers';
import { sessionCookie } from '../../dev/testing/app';
import { query } from '../../dev/testing/db';
import { disconnectAll, primary } from '../../server/db/client';
import { resetEnvCache } from '../../server/env';
import { backgroundDb } from '../../server/db/background';
import { failRun, startWorkers, type Workers } from '../../server/worker/workers';
import { contractFetch } from '../../dev/testing/contract';

const f = () => inject('faults');
let topo: EmbeddedTopology;
const workers: Workers[] = [];
let opsCookie: string | undefined;
/** The move under test, while it may be unfinished (afterAll ends it: acme must not stay moving). */
let moveRun: { id: string; runId: string } | undefined;

// pg-boss (inside the in-process workers) can't record a job's outcome while the primary is
// down, and that rejection is its own, unhandled: a worker process would exit on it and be
// restarted, the job expiring and running again. vitest.config.ts lets exactly those pass
// (connection losses raised from inside pg-boss); anything else fails the run.

beforeAll(async () => {
  topo = await EmbeddedTopology.up({ dir: f().dir, regions: ['sfo1', 'lax1', 'ams1'] });
  Object.assign(process.env, f().appEnv, {
    WORKFLOW_STEP_MS: '50',
    WORKFLOW_STEP_TIMEOUT_SECONDS: '5',
    WORKFLOW_MAINTENANCE_SECONDS: '1',
    WORKFLOW_RETRY_DELAY_SECONDS: '1',
    WORKFLOW_RETRY_LIMIT: '20',
    WORKFLOW_POLL_SECONDS: '0.5',
    MOVE_REPLICA_WAIT_SECONDS: '1',
    LOG_LEVEL: 'silent',
  });
  resetEnvCache();
  await disconnectAll();
});

afterAll(async () => {
  await query(f().adminReplicas.lax1!, 'SELECT pg_wal_replay_resume()').catch(() => {});
  // The fault files after this one use acme at sfo1 (its keys, its sessions): bring it home.
  // A handover is undone only by a move back; then lax1 leaves its allowed regions again.
  // A move this file left unfinished is failed: its `ended` hook makes acme writable at sfo1.
  const left = moveRun && (await primary().workspaceMove.findUnique({ where: { id: moveRun.id } }));
  if (moveRun && left && !['completed', 'failed', 'cancelled'].includes(left.status)) {
    const step = await primary().workflowStep.findFirst({
      where: { runId: moveRun.runId, status: { not: 'succeeded' } },
      orderBy: { position: 'asc' },
    });
    await failRun(backgroundDb(), moveRun.runId, step?.position ?? 0, 'ended by the test after its failure');
    await until('the unfinished move to end', async () => {
      const m = await primary().workspaceMove.findUnique({ where: { id: moveRun!.id } });
      return m && ['completed', 'failed', 'cancelled'].includes(m.status);
    });
  }
  const acme = await primary().organization.findUnique({ where: { slug: 'acme' } });
  if (acme?.homeRegion === 'lax1' && opsCookie) {
    const res = await contractFetch(`${f().baseUrl}/v1/atlas/moves`, {
      method: 'POST',
      headers: { cookie: opsCookie, origin: f().baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'acme', to_region: 'sfo1' }),
    });
    if (res.status === 202) {
      const { id } = (await res.json()) as { id: string };
      await until(
        'acme back at sfo1',
        async () => (await primary().workspaceMove.findUnique({ where: { id } }))?.status === 'completed',
        120_000,
      );
    }
  }
  if (acme) await primary().organizationRegion.deleteMany({ where: { orgId: acme.id, region: 'lax1' } });
  await Promise.all(workers.map((w) => w.stop({ graceful: false }).catch(() => {})));
}, 150_000);

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('retries the step in hand while the primary is down and completes the same move after', async () => {
  const acme = await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } });
  await primary().organizationRegion.upsert({
    where: { orgId_region: { orgId: acme.id, region: 'lax1' } },
    create: { orgId: acme.id, region: 'lax1' },
    update: {},
  });
  // The app's cells register acme with the directory at start.
  await until('acme in the directory', () => primary().directoryWorkspace.findUnique({ where: { slug: 'acme' } }));
  const ops = await primary().user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } });
  const cookie = await sessionCookie(ops.id, null);
  opsCookie = cookie;

  workers.push(await startWorkers({ connectionString: f().databaseUrl, regions: ['sfo1', 'lax1'] }));
  await query(f().adminReplicas.lax1!, 'SELECT pg_wal_replay_pause()');
  const res = await contractFetch(`${f().baseUrl}/v1/atlas/moves`, {
    method: 'POST',
    headers: { cookie, origin: f().baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify({ slug: 'acme', to_region: 'lax1' }),
  });
  expect(res.status, await res.clone().text()).toBe(202);
  const { id, run_id: runId } = (await res.json()) as { id: string; run_id: string };
  moveRun = { id, runId };

  // The verify is in hand (it waits for the paused replica): now the primary goes away.
  await until('verify running', async () => {
    const s = await primary().workflowStep.findFirst({ where: { runId, name: 'verify' } });
    return s?.status === 'running';
  });
  await topo.stopServer('primary', 'immediate');
  try {
    await new Promise((r) => setTimeout(r, 4_000));
    // Meanwhile the app still answers reads of acme from a replica: the move changed nothing yet.
    // lax1 stopped replaying before the move began: without the primary to measure against, the
    // WAL it received but never replayed still shows it behind, so a replica that has the move serves.
    const during = await contractFetch(`${f().baseUrl}/v1/atlas/moves/${id}`, { headers: { cookie } });
    expect(during.status).toBe(200);
    expect(during.headers.get('X-Meridian-Served-By')).not.toBe('replica:lax1');
    expect(during.headers.get('X-Degraded-Reason')).toBe('primary_down');
    expect(((await during.json()) as { status: string }).status).toBe('copying');
  } finally {
    await topo.startServer('primary'); // whatever happened above: the files after this one need it
  }
  await query(f().adminReplicas.lax1!, 'SELECT pg_wal_replay_resume()');

  const done = await until(
    'the move to end',
    async () => {
      const m = await primary().workspaceMove.findUnique({ where: { id } });
      return m && ['completed', 'failed', 'cancelled'].includes(m.status) ? m : undefined;
    },
    120_000,
  );
  expect(done.status, done.error ?? '').toBe('completed');
  const steps = await primary().workflowStep.findMany({ where: { runId }, orderBy: { position: 'asc' } });
  expect(steps.every((s) => s.status === 'succeeded')).toBe(true);
  expect(steps.find((s) => s.name === 'verify')!.attempts).toBeGreaterThan(1);
  expect((done.tables as { match: boolean }[]).every((t) => t.match)).toBe(true);
  const org = await primary().organization.findUniqueOrThrow({ where: { id: acme.id } });
  expect([org.status, org.homeRegion]).toEqual(['active', 'lax1']);
  expect((await primary().directoryWorkspace.findUniqueOrThrow({ where: { slug: 'acme' } })).region).toBe('lax1');
}, 240_000);
