// What a workflow is, as the engine runs it: its kind, its steps in order, and its start and end.
// docs/flows/cluster-create.md#running-it-workflows
import type { Tx } from '../db/access';
import type { Db } from '../db/client';

/** A permanent failure: the run fails with its message (no retry). */
export class StepFailure extends Error {}

/** The run a step belongs to, as its workflow sees it. */
export interface StepRun {
  id: string;
  orgId: string | null;
  kind: string;
  region: string;
  clusterId: string | null;
  serverId: string | null;
  input: unknown;
}

/** What an effect works with: the transaction that marks the step succeeded. */
export interface StepScope {
  tx: Tx;
  run: StepRun;
  now: Date;
}

/**
 * What a step's success commits. It runs in the transaction that marks the step succeeded, so
 * it happens exactly once even if the step's job runs twice.
 */
export type StepEffect = (s: StepScope) => Promise<void>;

/**
 * The outcome of a step's work: an effect to commit with its success (else the step's own), a
 * request to run again in `wait` seconds without counting an attempt (e.g. until the workspace's
 * runs have finished), or the run's end as cancelled.
 */
export type StepWorkResult = { effect?: StepEffect } | { wait: number; note?: string } | { cancel: true };

/** Work of a step's own (a workspace move's export, its directory calls), outside any transaction. */
export type StepWork = (c: { db: Db; run: StepRun; attempt: number }) => Promise<StepWorkResult>;

export interface StepDefinition {
  name: string;
  /** Without it the step's work is the simulated provisioning delay (WORKFLOW_STEP_MS). */
  work?: StepWork;
  /** Committed with the step's success when its work returns no effect of its own. */
  effect?: StepEffect;
  /** The region whose queue (and workers) take the step; without it, the run's. */
  region?: (run: StepRun) => string;
  /** Past a point of no return giving up would leave the run half done: retried without limit. */
  retriesForever?: boolean;
  /**
   * How long its worker may go quiet before another takes the step, when longer than the queue's
   * WORKFLOW_STEP_TIMEOUT_SECONDS: a step that works in bulk (a move's export) runs for minutes.
   */
  timeoutSeconds?: number;
}

/** How a run ended other than by succeeding, and what `beforeEnded` prepared. */
export interface RunEnd {
  outcome: 'failed' | 'cancelled';
  reason: string;
  now: Date;
  prepared?: unknown;
}

export interface WorkflowDefinition {
  /** The run's `kind` column. */
  kind: string;
  steps: readonly StepDefinition[];
  /** In the transaction that marks the first step running (on every attempt of it). */
  starting?(tx: Tx, run: StepRun): Promise<void>;
  /** In the transaction that marks the run succeeded, after the last step's effect. */
  succeeded?(tx: Tx, run: StepRun, now: Date): Promise<void>;
  /**
   * Before the run is failed or cancelled: calls to other services (best effort, no transaction
   * open). What it returns is handed to `ended` as `prepared`.
   */
  beforeEnded?(run: StepRun): Promise<unknown>;
  /** In the transaction that fails or cancels the run (its steps and status are marked already). */
  ended?(tx: Tx, run: StepRun, end: RunEnd): Promise<void>;
}

/** The workflows a worker runs, by kind. */
export type WorkflowRegistry = ReadonlyMap<string, WorkflowDefinition>;

/** A registry of these definitions; two of one kind are a mistake. */
export function workflowRegistry(definitions: readonly WorkflowDefinition[]): WorkflowRegistry {
  const byKind = new Map<string, WorkflowDefinition>();
  for (const d of definitions) {
    if (byKind.has(d.kind)) throw new Error(`two workflow definitions of kind ${d.kind}`);
    byKind.set(d.kind, d);
  }
  return byKind;
}

/** The step names of a workflow, in order (what a run's steps are created from). */
export const stepNames = (w: WorkflowDefinition): string[] => w.steps.map((s) => s.name);
