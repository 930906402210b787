// The engine runs whatever definition it is given and names none itself: a test-only workflow,
// on an in-memory stand-in for the run's rows, goes through its steps, hooks, regions and retry
// rules as the real ones do.
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { StepFailure, workflowRegistry, type RunEnd, type WorkflowDefinition } from './definition';
import { executeStep, failRun, type EngineOptions } from './engine';
import { lockRunStatement } from './workflows.sql';

type Row = Record<string, unknown>;

/** The rows of one run and its steps, and what was queued and notified, behind a Prisma-like face. */
function memoryDb(kind: string, names: string[]) {
  const run: Row = { id: 'run_t', orgId: null, kind, region: 'sfo1', clusterId: null, serverId: null, input: {} };
  Object.assign(run, { status: 'queued', startedAt: null, error: null, finishedAt: null });
  const steps: Row[] = names.map((name, position) => ({
    runId: 'run_t',
    position,
    name,
    status: 'pending',
    attempts: 0,
    startedAt: null,
    finishedAt: null,
    error: null,
  }));
  const jobs: { queue: unknown; data: unknown; startAfter: unknown }[] = [];
  const notified: unknown[] = [];
  const apply = (row: Row, data: Row) => {
    for (const [k, v] of Object.entries(data)) {
      const op = v as { increment?: number; decrement?: number } | null;
      if (op && typeof op === 'object' && 'increment' in op) row[k] = (row[k] as number) + op.increment!;
      else if (op && typeof op === 'object' && 'decrement' in op) row[k] = (row[k] as number) - op.decrement!;
      else row[k] = v;
    }
    return { ...row };
  };
  const matches = (s: Row, where: Row) =>
    Object.entries(where).every(([k, v]) =>
      v !== null && typeof v === 'object' && 'gt' in v ? (s[k] as number) > (v as { gt: number }).gt : s[k] === v,
    );
  const at = (where: { runId_position: { position: number } }) => steps[where.runId_position.position];
  const workflowStep = {
    findUnique: ({ where }: { where: { runId_position: { position: number } } }) =>
      Promise.resolve(at(where) ? { ...at(where)! } : null),
    update: ({ where, data }: { where: { runId_position: { position: number } }; data: Row }) =>
      Promise.resolve(apply(at(where)!, data)),
    updateMany: ({ where, data }: { where: Row; data: Row }) =>
      Promise.resolve({ count: steps.filter((s) => matches(s, where)).map((s) => apply(s, data)).length }),
  };
  const tx = {
    // wakeRegionWorkers (workflows.sql.ts): its one parameter is the region.
    $executeRawUnsafe: (_: string, ...values: unknown[]) => Promise.resolve(notified.push(values[0])),
    $queryRawUnsafe: (text: string, ...values: unknown[]) => {
      if (text === lockRunStatement.text) return Promise.resolve([{ ...run }]);
      jobs.push({ queue: values[1], data: JSON.parse(values[2] as string), startAfter: values[4] });
      return Promise.resolve([{ id: 'job' }]);
    },
    workflowStep,
    workflowRun: { update: ({ data }: { data: Row }) => Promise.resolve(apply(run, data)) },
  };
  const db = { $transaction: (fn: (t: typeof tx) => unknown) => fn(tx), workflowStep } as unknown as Db;
  return { db, run, steps, jobs, notified };
}

const attempt = (position: number, retryCount = 0) => ({
  data: { runId: 'run_t', position },
  retryCount,
  retryLimit: 2,
});

describe('the workflow engine', () => {
  it('runs a definition it has never heard of: steps, effects, work, regions and hooks', async () => {
    const calls: string[] = [];
    const invented: WorkflowDefinition = {
      kind: 'test-only-invented',
      steps: [
        { name: 'elsewhere', region: () => 'lax1', effect: async () => void calls.push('effect elsewhere') },
        {
          name: 'working',
          work: async ({ attempt: n }) => {
            calls.push(`work ${n}`);
            return { effect: async () => void calls.push('effect of work') };
          },
        },
      ],
      starting: async () => void calls.push('starting'),
      succeeded: async () => void calls.push('succeeded'),
    };
    const m = memoryDb(invented.kind, ['elsewhere', 'working']);
    const opts: EngineOptions = { workflows: workflowRegistry([invented]), stepMs: 1, faults: new Map() };
    expect(await executeStep(m.db, attempt(0), opts)).toBe('succeeded');
    // The next step is the run's region's: its job goes there, and its workers are woken.
    expect(m.jobs).toEqual([{ queue: 'workflow-sfo1', data: { runId: 'run_t', position: 1 }, startAfter: null }]);
    expect(m.notified).toEqual(['sfo1']);
    expect(await executeStep(m.db, attempt(1), opts)).toBe('succeeded');
    expect(calls).toEqual(['starting', 'effect elsewhere', 'work 1', 'effect of work', 'succeeded']);
    expect([m.run.status, ...m.steps.map((s) => `${s.name}:${s.status}:${s.attempts}`)]).toEqual([
      'succeeded',
      'elsewhere:succeeded:1',
      'working:succeeded:1',
    ]);
    // A job that runs again finds its step done.
    expect(await executeStep(m.db, attempt(1), opts)).toBe('skipped');
  });

  it('skips a run of a kind it was not given', async () => {
    const m = memoryDb('test-only-unknown', ['a']);
    const opts: EngineOptions = { workflows: workflowRegistry([]), stepMs: 1, faults: new Map() };
    expect(await executeStep(m.db, attempt(0), opts)).toBe('skipped');
    expect([m.run.status, m.steps[0]!.status]).toEqual(['queued', 'pending']);
  });

  it("ends a run on a StepFailure with the workflow's own `ended`", async () => {
    const ends: RunEnd[] = [];
    const failing: WorkflowDefinition = {
      kind: 'test-only-failing',
      steps: [
        {
          name: 'refuses',
          effect: () => Promise.reject(new StepFailure('not today')),
        },
        { name: 'never' },
      ],
      beforeEnded: () => Promise.resolve('prepared'),
      ended: async (_tx, _run, end) => void ends.push(end),
    };
    const m = memoryDb(failing.kind, ['refuses', 'never']);
    const opts: EngineOptions = { workflows: workflowRegistry([failing]), stepMs: 1, faults: new Map() };
    expect(await executeStep(m.db, attempt(0), opts)).toBe('failed');
    expect([m.run.status, m.run.error, m.steps[0]!.status, m.steps[1]!.status]).toEqual([
      'failed',
      'refuses: not today',
      'failed',
      'skipped',
    ]);
    expect(ends).toMatchObject([{ outcome: 'failed', reason: 'refuses: not today', prepared: 'prepared' }]);
    // Failing it again (the dead-letter queue) finds it ended.
    await failRun(m.db, opts.workflows, 'run_t', 0, 'again');
    expect(ends).toHaveLength(1);
  });

  it('retries a step that retries forever past the retry limit; gives up on any other', async () => {
    const flaky = (retriesForever: boolean): WorkflowDefinition => ({
      kind: `test-only-flaky-${retriesForever}`,
      steps: [{ name: 'flaky', retriesForever, work: () => Promise.reject(new Error('unreachable')) }],
    });
    const patient = memoryDb('test-only-flaky-true', ['flaky']);
    const given = { workflows: workflowRegistry([flaky(true), flaky(false)]), stepMs: 1, faults: new Map() };
    await expect(executeStep(patient.db, attempt(0, 0), given)).rejects.toThrow('unreachable');
    expect(await executeStep(patient.db, attempt(0, 2), given)).toBe('waiting');
    expect([patient.run.status, patient.steps[0]!.attempts, patient.steps[0]!.error]).toEqual([
      'running',
      1, // the waiting attempt was given back
      'unreachable (still retrying)',
    ]);
    expect(patient.jobs).toEqual([{ queue: 'workflow-sfo1', data: { runId: 'run_t', position: 0 }, startAfter: '5' }]);
    const impatient = memoryDb('test-only-flaky-false', ['flaky']);
    expect(await executeStep(impatient.db, attempt(0, 2), given)).toBe('failed');
    expect(impatient.run.error).toBe('flaky: unreachable (gave up after 1 attempts)');
  });
});
