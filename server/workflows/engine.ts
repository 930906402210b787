// Executes one step of one run (one queue job). The step is marked running (attempt n) in one
// transaction, its work is done, and its effect, its success and the next step's job commit
// together in a second one. A job that runs twice (its worker died after the work but before
// the queue heard back) finds the step succeeded and does nothing. A transient error is thrown
// back to the queue, which retries the step with backoff; a StepFailure, or the last retry
// failing, ends the run as failed with the reason on the run, the step and the cluster.
// Steps with work of their own (a workspace move's: server/workflows/work.ts) do it in place of
// the simulated delay; they may also wait (run again later, no attempt counted) or cancel the run.
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { notify } from '../notifications/repository';
import { WORKFLOWS, isWorkflowKind } from './definitions';
import { enqueueStep, RUN_STARTED_CHANNEL, type StepJob } from './queue';
import { EFFECTS, StepFailure, releaseServers, type StepScope } from './steps';
import { MOVE_HOOKS, MOVE_WORK, moveStepRegion } from '../moves/workflow';
import type { RunEndHooks, StepRun, StepWork, StepWorkResult } from './work';

/** Steps with work of their own (server/workflows/work.ts), by kind and step name. */
const WORK: Record<string, Record<string, StepWork>> = { 'move-workspace': MOVE_WORK };
const END_HOOKS: Record<string, RunEndHooks> = { 'move-workspace': MOVE_HOOKS };

/** Steps that retry for as long as it takes (a move after its handover: server/moves/workflow.ts). */
const NEVER_GIVE_UP = new Set(['move-workspace:handover', 'move-workspace:purge']);

/** The region whose queue (and workers) take a step: the run's, unless the kind says otherwise. */
function stepRegion(run: StepRun, position: number): string {
  const name = WORKFLOWS[run.kind as keyof typeof WORKFLOWS]?.[position];
  return run.kind === 'move-workspace' && name ? moveStepRegion(run, name) : run.region;
}

export interface EngineOptions {
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

type RunRow = StepScope['run'] & { status: string; startedAt: Date | null };

async function lockRun(tx: Tx, runId: string): Promise<RunRow | undefined> {
  const [run] = await tx.$queryRaw<RunRow[]>`
    SELECT id, org_id AS "orgId", kind, region, cluster_id AS "clusterId", server_id AS "serverId", input,
           status::text AS status,
           started_at AS "startedAt"
    FROM workflow_runs WHERE id = ${runId} FOR UPDATE`;
  return run;
}

export async function executeStep(db: Db, job: JobAttempt, opts: EngineOptions): Promise<StepOutcome> {
  const { runId, position } = job.data;
  const log = opts.log ?? (() => {});

  const begun = await db.$transaction(async (tx) => {
    const run = await lockRun(tx, runId);
    if (!run || FINISHED.has(run.status) || !isWorkflowKind(run.kind)) return undefined;
    const step = await tx.workflowStep.findUnique({ where: { runId_position: { runId, position } } });
    if (!step || step.status === 'succeeded' || step.status === 'failed' || step.status === 'skipped') return undefined;
    const now = new Date();
    await tx.workflowRun.update({ where: { id: runId }, data: { status: 'running', startedAt: run.startedAt ?? now } });
    const updated = await tx.workflowStep.update({
      where: { runId_position: { runId, position } },
      data: { status: 'running', attempts: { increment: 1 }, startedAt: step.startedAt ?? now, error: null },
    });
    if (run.kind === 'create-cluster' && position === 0 && run.clusterId) {
      await tx.cluster.updateMany({
        where: { id: run.clusterId, status: 'pending' },
        data: { status: 'provisioning' },
      });
    }
    return { run, step: updated };
  });
  if (!begun) return 'skipped';
  const { run, step } = begun;
  const steps = WORKFLOWS[run.kind as keyof typeof WORKFLOWS];
  log('step_started', { run_id: runId, step: step.name, attempt: step.attempts });

  try {
    const work = WORK[run.kind]?.[step.name];
    if (step.attempts <= (opts.faults.get(step.name) ?? 0)) {
      if (!work) await new Promise((r) => setTimeout(r, opts.stepMs));
      throw new Error(`${step.name}: injected fault on attempt ${step.attempts}`);
    }
    let result: StepWorkResult = {};
    if (work) result = await work({ db, run, attempt: step.attempts });
    else await new Promise((r) => setTimeout(r, opts.stepMs));
    if ('wait' in result) {
      await waitStep(db, run, position, result.wait, result.note);
      log('step_waiting', { run_id: runId, step: step.name, seconds: result.wait, note: result.note });
      return 'waiting';
    }
    if ('cancel' in result) {
      await endRun(db, runId, position, 'cancelled', 'cancelled by an operator');
      log('run_cancelled', { run_id: runId, step: step.name });
      return 'cancelled';
    }
    const effect = 'effect' in result ? result.effect : undefined;
    const done = await db.$transaction(async (tx) => {
      const locked = await lockRun(tx, runId);
      const current = await tx.workflowStep.findUnique({ where: { runId_position: { runId, position } } });
      if (!locked || FINISHED.has(locked.status) || current?.status !== 'running') return false; // someone else finished it
      const now = new Date();
      await (effect ?? EFFECTS[step.name]!)({ tx, run: locked, now });
      await tx.workflowStep.update({
        where: { runId_position: { runId, position } },
        data: { status: 'succeeded', finishedAt: now, error: null },
      });
      if (position + 1 < steps.length) {
        const next = stepRegion(run, position + 1);
        await enqueueStep(tx, next, { runId, position: position + 1 });
        // Another region's workers take the next step: wake them (at commit) rather than wait for a poll.
        if (next !== stepRegion(run, position)) await tx.$executeRaw`SELECT pg_notify(${RUN_STARTED_CHANNEL}, ${next})`;
      } else {
        await tx.workflowRun.update({ where: { id: runId }, data: { status: 'succeeded', finishedAt: now } });
        await announce(tx, locked, 'succeeded');
      }
      return true;
    });
    if (!done) return 'skipped';
    log('step_succeeded', { run_id: runId, step: step.name, attempt: step.attempts });
    return 'succeeded';
  } catch (e) {
    const message = (e as Error).message;
    if (e instanceof StepFailure) {
      await failRun(db, runId, position, `${step.name}: ${message}`);
      log('run_failed', { run_id: runId, step: step.name, reason: message });
      return 'failed';
    }
    if (job.retryCount >= job.retryLimit && NEVER_GIVE_UP.has(`${run.kind}:${step.name}`)) {
      // Past a move's point of no return giving up would leave it half done: keep trying.
      await waitStep(db, run, position, 5, `${message} (still retrying)`);
      log('step_waiting', { run_id: runId, step: step.name, error: message });
      return 'waiting';
    }
    if (job.retryCount >= job.retryLimit) {
      await failRun(db, runId, position, `${step.name}: ${message} (gave up after ${step.attempts} attempts)`);
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
 * The step asked to run again in `seconds` (server/workflows/work.ts): it stays running, the
 * attempt is given back, and its next job is queued (at its region) with the delay.
 */
async function waitStep(db: Db, run: StepRun, position: number, seconds: number, note?: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const locked = await lockRun(tx, run.id);
    if (!locked || FINISHED.has(locked.status)) return;
    await tx.workflowStep.updateMany({
      where: { runId: run.id, position, status: 'running' },
      data: { attempts: { decrement: 1 }, error: note ?? null },
    });
    await enqueueStep(tx, stepRegion(run, position), { runId: run.id, position }, seconds);
  });
}

/** Ends a run as failed: the step, the run, the cluster (with the reason) and a notification. */
export async function failRun(db: Db, runId: string, position: number, reason: string): Promise<void> {
  await endRun(db, runId, position, 'failed', reason);
}

/** Ends a run as failed or cancelled at `position`; the steps after it are skipped. */
async function endRun(
  db: Db,
  runId: string,
  position: number,
  outcome: 'failed' | 'cancelled',
  reason: string,
): Promise<void> {
  const before = await db.$transaction((tx) => lockRun(tx, runId));
  const prepared =
    before && !FINISHED.has(before.status) ? await END_HOOKS[before.kind]?.beforeEnded?.(before) : undefined;
  await db.$transaction(async (tx): Promise<RunRow | undefined> => {
    const run = await lockRun(tx, runId);
    if (!run || FINISHED.has(run.status)) return undefined;
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
    await END_HOOKS[run.kind]?.ended(tx, run, outcome, reason, prepared);
    if (outcome === 'cancelled') return run;
    if (run.clusterId) {
      if (run.kind === 'create-cluster') await releaseServers(tx, run.clusterId, now);
      await tx.cluster.updateMany({
        where: { id: run.clusterId, status: { not: 'deleted' } },
        data: { status: 'failed', statusReason: run.kind === 'delete-cluster' ? `delete failed: ${reason}` : reason },
      });
    }
    if (run.serverId && run.kind === 'provision-server') {
      // Half-provisioned hardware is not safe to hand out: it waits for an operator.
      await tx.server.updateMany({
        where: { id: run.serverId, status: 'provisioning' },
        data: { status: 'maintenance' },
      });
    }
    await announce(tx, { ...run, status: 'failed' }, 'failed', reason);
    return run;
  });
}

async function announce(tx: Tx, run: RunRow, outcome: 'succeeded' | 'failed', reason?: string): Promise<void> {
  if (!run.clusterId || !run.orgId) return; // only clusters' runs notify their organization
  const c = await tx.cluster.findUnique({ where: { id: run.clusterId }, select: { name: true, region: true } });
  if (!c) return;
  const requestedBy = (run.input as { requested_by?: unknown } | null)?.requested_by;
  const requester =
    typeof requestedBy === 'string'
      ? await tx.user.findUnique({ where: { id: requestedBy }, select: { id: true } })
      : null;
  const userId = requester?.id ?? null; // the person who asked, else the whole organization
  const creating = run.kind === 'create-cluster';
  const [kind, title, body] =
    outcome === 'succeeded'
      ? creating
        ? ['cluster.ready', `Cluster ${c.name} is ready`, `${c.name} in ${c.region} finished provisioning.`]
        : [
            'cluster.deleted',
            `Cluster ${c.name} was deleted`,
            `${c.name} in ${c.region} is gone; its servers are free.`,
          ]
      : creating
        ? ['cluster.failed', `Cluster ${c.name} failed`, `${c.name} in ${c.region} could not be created: ${reason}`]
        : ['cluster.delete_failed', `Deleting ${c.name} failed`, `${c.name} in ${c.region}: ${reason}`];
  await notify(tx, { orgId: run.orgId, userId, kind, title, body, resourceId: run.clusterId });
}
