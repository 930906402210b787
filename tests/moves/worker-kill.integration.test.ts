// A workspace move survives its worker being killed (SIGKILL) mid-export and mid-verify: the
// step in hand runs again on a restarted worker, the steps before it stay done, and the end state
// is the same as without the kills (every table verified, the directory at the target, one move).
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rest } from '../../dev/testing/app';
import { growWorkspace } from '../../dev/testing/workspace-rows';
import { primary } from '../../server/db/client';
import { lookUpWorkspace } from '../../server/directory/workspace-lookup';
import { FAST, ended, moveEnvironment, startMove, waitForMove, type MoveEnv } from './harness';

let env: MoveEnv;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  env = await moveEnvironment('moves_kill');
}, 120_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await env?.closeDirectory();
});

function spawnWorker(region: string): ChildProcess {
  // node itself (not the tsx launcher), so the PID we kill is the worker's.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/worker/main.ts'], {
    env: { ...process.env, ...FAST, WORKFLOW_REGIONS: region, LOG_LEVEL: 'silent' },
    stdio: 'ignore',
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function killWhenRunning(child: ChildProcess, runId: string, step: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const s = await primary().workflowStep.findFirst({ where: { runId, name: step } });
    if (s?.status === 'running') break;
    if (s?.status === 'succeeded') throw new Error(`${step} finished before it could be killed`);
    if (Date.now() > deadline) throw new Error(`${step} never started`);
    await new Promise((r) => setTimeout(r, 5));
  }
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
}

it('completes correctly after the worker is killed mid-export and mid-verify', async () => {
  const acme = await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } });
  // Big enough that the export and the verify take a while (and the kill lands inside them).
  await growWorkspace(primary(), acme.id, 10_000);
  const allow = await rest('PATCH', `/v1/atlas/organizations/${acme.id}`, {
    headers: { cookie: env.ops },
    body: { allowed_regions: ['sfo1', 'lax1'] },
  });
  expect(allow.status).toBe(200);
  // Acme's seeded runs still in flight are drained by the same sfo1 worker before the export.
  const m = await startMove(env.ops, 'acme', 'lax1');

  let source = spawnWorker('sfo1');
  await killWhenRunning(source, m.run_id, 'export');
  expect((await primary().organization.findUniqueOrThrow({ where: { id: acme.id } })).status).toBe('moving');
  source = spawnWorker('sfo1');

  let target = spawnWorker('lax1');
  await killWhenRunning(target, m.run_id, 'verify');
  target = spawnWorker('lax1');

  const done = await waitForMove(m.id, ended, 90_000);
  expect(done.move.status, done.move.error ?? '').toBe('completed');
  const attempts = Object.fromEntries(done.steps.map((s) => [s.name, s.attempts]));
  expect(attempts).toMatchObject({ offer: 1, read_only: 1, export: 2, verify: 2, handover: 1, purge: 1 });
  const tables = done.move.tables as { name: string; count: number; verified_count: number; match: boolean }[];
  expect(tables.every((t) => t.match && t.count === t.verified_count)).toBe(true);
  const total = tables.reduce((n, t) => n + t.count, 0);
  expect(total).toBeGreaterThan(10_000);
  expect(await lookUpWorkspace('acme')).toMatchObject({ region: 'lax1', status: 'active' });
  const org = await primary().organization.findUniqueOrThrow({ where: { id: acme.id } });
  expect([org.status, org.homeRegion]).toEqual(['active', 'lax1']);
  expect(await primary().workspaceMove.count({ where: { orgId: acme.id } })).toBe(1);
  source.kill('SIGTERM');
  target.kill('SIGTERM');
}, 180_000);
