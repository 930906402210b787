// Workflow runs as the API sees them: starting one (the run, its steps and the first step's
// job, in the caller's transaction, with the change that asked for the run), and reading one.
import { read, type Tx } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { execute } from '../db/sql';
import { AppError } from '../errors';
import { newId } from '../ids';
import { stepNames, type WorkflowDefinition } from './definition';
import { enqueueStep } from './queue';
import { wakeRegionWorkers } from './workflows.sql';
import { getRun } from './repository';

/** A run is an organization's (about one of its clusters, or itself) or, for operators, a server's. */
export type StartRun = {
  /** The domain's definition (e.g. server/clusters/delete-workflow.ts): its kind and steps. */
  workflow: WorkflowDefinition;
  region: string;
  input: Record<string, unknown>;
} & (
  | { orgId: string; clusterId: string; serverId?: undefined }
  /** A run about the organization itself (a workspace move). */
  | { orgId: string; clusterId?: undefined; serverId?: undefined }
  | { orgId?: undefined; clusterId?: undefined; serverId: string }
);

export async function startRun(tx: Tx, r: StartRun): Promise<string> {
  const id = newId('run');
  await tx.workflowRun.create({
    data: {
      id,
      orgId: r.orgId ?? null,
      kind: r.workflow.kind,
      region: r.region,
      clusterId: r.clusterId ?? null,
      serverId: r.serverId ?? null,
      status: 'queued',
      input: r.input as object,
      steps: { create: stepNames(r.workflow).map((name, position) => ({ position, name })) },
    },
  });
  await enqueueStep(tx, r.region, { runId: id, position: 0 }, 0, r.workflow.steps[0]?.timeoutSeconds);
  // Delivered at commit: the region's workers fetch the job now rather than at their next poll.
  await execute(tx, wakeRegionWorkers, r.region);
  return id;
}

/** A run of the organization with its steps; 404 when it is not theirs. */
export async function runOf(req: DataRequest, orgId: string, id: string) {
  const run = await read(req, (db) => getRun(db, orgId, id));
  if (!run) throw new AppError('not_found', `no workflow run ${id}`);
  return run;
}
