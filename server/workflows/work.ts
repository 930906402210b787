// Steps that do real work of their own (a workspace move's export, its directory calls) rather
// than the simulated provisioning delay: the engine calls `work` outside any transaction, then
// commits what it returns (`effect`) with the step's success, as for every step. A step may also
// ask to be run again later without counting an attempt (`wait`: e.g. until the workspace's runs
// have finished), or end its run as cancelled (`cancel`). Kinds may also hook the end of a run.
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import type { StepScope } from './steps';

export type StepRun = StepScope['run'];

export type StepWorkResult =
  { effect?: (s: StepScope) => Promise<void> } | { wait: number; note?: string } | { cancel: true };

export type StepWork = (c: { db: Db; run: StepRun; attempt: number }) => Promise<StepWorkResult>;

export interface RunEndHooks {
  /**
   * Before the run is failed or cancelled: calls to other services (best effort, no transaction
   * open). What it returns is handed to `ended`.
   */
  beforeEnded?(run: StepRun): Promise<unknown>;
  /** In the transaction that fails or cancels the run; `prepared` is what `beforeEnded` returned. */
  ended(tx: Tx, run: StepRun, outcome: 'failed' | 'cancelled', reason: string, prepared?: unknown): Promise<void>;
}
