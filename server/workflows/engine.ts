// Executes one step of one run (one queue job): marked running, its work, then its effect, its
// success and the next step's job in one transaction (docs/flows/cluster-create.md#running-it-workflows).
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { execute, runOne } from '../db/sql';
import {
  StepFailure,
  type StepRun,
  type StepWorkResult,
  type WorkflowDefinition,
  type WorkflowRegistry,
} from './definition';
import { enqueueStep, type StepJob } from './queue';
import { lockRunStatement, wakeRegionWorkers } from './workflows.sql';

/** The region whose queue (and workers) take a step: the run's, unless the step says otherwise. */
function stepRegion(workflow: WorkflowDefinition, run: StepRun, position: number): string {
  return workflow.steps[position]?.region?.(run) ?? run.region;
}

export interface EngineOptions {
  /** The workflows it runs; a run of any other kind is skipped. */
  workflows: WorkflowRegistry;
  /** Simulated duration of each step's work. */
  stepMs: number;
  /** How many first attempts of a step fail on purpose (testing aid). */
  faults: Map<string, number>;
  log?: (event: string, fields: Record<string, unknown>) => void;
}

export interface JobAttempt {
  data: StepJob;
  /** Retries so far and allowed, as the queue counts them. */
  retryCount: number;
  retryLimit: number;
}

export type StepOutcome = 'succeeded' | 'failed' | 'skipped' | 'waiting' | 'cancelled';

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

const nothing = async () => {};

const lockRun = (tx: Tx, runId: string) => runOne(tx, lockRunStatement, runId);

export async function executeStep(db: Db, job: JobAttempt, opts: EngineOptions): Promise<StepOutcome> {
  const { runId, position } = job.data;
  const log = opts.log ?? (() => {});

  const begun = await db.$transaction(async (tx) => {
    const run = await lockRun(tx, runId);
    const workflow = run && opts.workflows.get(run.kind);
    if (!run || FINISHED.has(run.status) || !workflow) return undefined;
    const step = await tx.workflowStep.findUnique({ where: { runId_position: { runId, position } } });
    if (!step || step.status === 'succeeded' || step.status === 'failed' || step.status === 'skipped') return undefined;
    const now = new Date();
    await tx.workflowRun.update({ where: { id: runId }, data: { status: 'running', startedAt: run.startedAt ?? now } });
    const updated = await tx.workflowStep.update({
      where: { runId_position: { runId, position } },
      data: { status: 'running', attempts: { increment: 1 }, startedAt: step.startedAt ?? now, error: null },
    });
    if (position === 0) await workflow.starting?.(tx, run);
    return { run, workflow, step: updated };
  });
  if (!begun) return 'skipped';
  const { run, workflow, step } = begun;
  const definition = workflow.steps[step.position];
  log('step_started', { run_id: runId, step: step.name, attempt: step.attempts });

  try {
    const work = definition?.work;
    if (step.attempts <= (opts.faults.get(step.name) ?? 0)) {
      if (!work) await new Promise((r) => setTimeout(r, opts.stepMs));
      throw new Error(`${step.name}: injected fault on attempt ${step.attempts}`);
    }
    let result: StepWorkResult = {};
    if (work) result = await work({ db, run, attempt: step.attempts });
    else await new Promise((r) => setTimeout(r, opts.stepMs));
    if ('wait' in result) {
      await waitStep(db, workflow, run, position, result.wait, result.note);
      log('step_waiting', { run_id: runId, step: step.name, seconds: result.wait, note: result.note });
      return 'waiting';
    }
    if ('cancel' in result) {
      await endRun(db, opts.workflows, runId, position, 'cancelled', 'cancelled by an operator');
      log('run_cancelled', { run_id: runId, step: step.name });
      return 'cancelled';
    }
    const effect = 'effect' in result ? result.effect : undefined;
    const done = await db.$transaction(async (tx) => {
      const locked = await lockRun(tx, runId);
      const current = await tx.workflowStep.findUnique({ where: { runId_position: { runId, position } } });
      if (!locked || FINISHED.has(locked.status) || current?.status !== 'running') return false; // someone else finished it
      const now = new Date();
      await (effect ?? definition?.effect ?? nothing)({ tx, run: locked, now });
      await tx.workflowStep.update({
        where: { runId_position: { runId, position } },
        data: { status: 'succeeded', finishedAt: now, error: null },
      });
      if (position + 1 < workflow.steps.length) {
        const next = stepRegion(workflow, run, position + 1);
        await enqueueStep(tx, next, { runId, position: position + 1 }, 0, workflow.steps[position + 1]!.timeoutSeconds);
        // Another region's workers take the next step: wake them (at commit) rather than wait for a poll.
        if (next !== stepRegion(workflow, run, position)) {
          await execute(tx, wakeRegionWorkers, next);
        }
      } else {
        await tx.workflowRun.update({ where: { id: runId }, data: { status: 'succeeded', finishedAt: now } });
        await workflow.succeeded?.(tx, locked, now);
      }
      return true;
    });
    if (!done) return 'skipped';
    log('step_succeeded', { run_id: runId, step: step.name, attempt: step.attempts });
    return 'succeeded';
  } catch (e) {
    const message = (e as Error).message;
    if (e instanceof StepFailure) {
      await failRun(db, opts.workflows, runId, position, `${step.name}: ${message}`);
      log('run_failed', { run_id: runId, step: step.name, reason: message });
      return 'failed';
    }
    if (job.retryCount >= job.retryLimit && definition?.retriesForever) {
      // Past a point of no return giving up would leave the run half done: keep trying.
      await waitStep(db, workflow, run, position, 5, `${message} (still retrying)`);
      log('step_waiting', { run_id: runId, step: step.name, error: message });
      return 'waiting';
    }
    if (job.retryCount >= job.retryLimit) {
      await failRun(
        db,
        opts.workflows,
        runId,
        position,
        `${step.name}: ${message} (gave up after ${step.attempts} attempts)`,
      );
      log('run_failed', { run_id: runId, step: step.name, reason: message, attempts: step.attempts });
      return 'failed';
    }
    // Transient: note it on the step and let the queue retry with backoff.
    await db.workflowStep
      .updateMany({ where: { runId, position, status: 'running' }, data: { error: message } })
      .catch(() => {});
    log('step_retrying', { run_id: runId, step: step.name, attempt: step.attempts, error: message });
    throw e;
  }
}

/**
 * The step asked to run again in `seconds` (definition.ts, StepWorkResult): it stays running,
 * the attempt is given back, and its next job is queued (at its region) with the delay.
 */
async function waitStep(
  db: Db,
  workflow: WorkflowDefinition,
  run: StepRun,
  position: number,
  seconds: number,
  note?: string,
): Promise<void> {
  await db.$transaction(async (tx) => {
    const locked = await lockRun(tx, run.id);
    if (!locked || FINISHED.has(locked.status)) return;
    await tx.workflowStep.updateMany({
      where: { runId: run.id, position, status: 'running' },
      data: { attempts: { decrement: 1 }, error: note ?? null },
    });
    await enqueueStep(
      tx,
      stepRegion(workflow, run, position),
      { runId: run.id, position },
      seconds,
      workflow.steps[position]?.timeoutSeconds,
    );
  });
}

/** Ends a run as failed: its step, the run, and whatever its workflow's `ended` does. */
export async function failRun(
  db: Db,
  workflows: WorkflowRegistry,
  runId: string,
  position: number,
  reason: string,
): Promise<void> {
  await endRun(db, workflows, runId, position, 'failed', reason);
}

/** Ends a run as failed or cancelled at `position`; the steps after it are skipped. */
async function endRun(
  db: Db,
  workflows: WorkflowRegistry,
  runId: string,
  position: number,
  outcome: 'failed' | 'cancelled',
  reason: string,
): Promise<void> {
  const before = await db.$transaction((tx) => lockRun(tx, runId));
  const prepared =
    before && !FINISHED.has(before.status) ? await workflows.get(before.kind)?.beforeEnded?.(before) : undefined;
  await db.$transaction(async (tx): Promise<void> => {
    const run = await lockRun(tx, runId);
    if (!run || FINISHED.has(run.status)) return;
    const now = new Date();
    await tx.workflowStep.updateMany({
      where: { runId, position },
      data:
        outcome === 'failed'
          ? { status: 'failed', error: reason, finishedAt: now }
          : { status: 'skipped', error: reason, finishedAt: now },
    });
    await tx.workflowStep.updateMany({ where: { runId, position: { gt: position } }, data: { status: 'skipped' } });
    await tx.workflowRun.update({ where: { id: runId }, data: { status: outcome, error: reason, finishedAt: now } });
    await workflows.get(run.kind)?.ended?.(tx, run, { outcome, reason, now, prepared });
  });
}
