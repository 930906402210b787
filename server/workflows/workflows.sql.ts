// Hand-written SQL of workflow runs: the row lock a step's transactions take, and the wake-up
// a region's workers get when a run (or a step in their region) is queued.
import { command, statement } from '../db/sql';
import type { StepRun } from './definition';
import { RUN_STARTED_CHANNEL } from './queue';

export type LockedRun = StepRun & { status: string; startedAt: Date | null };

/** A run's row, locked FOR UPDATE to the end of the transaction. */
export const lockRunStatement = statement<LockedRun, [runId: string]>(
  'workflows.lock_run',
  `SELECT id, org_id AS "orgId", kind, region, cluster_id AS "clusterId", server_id AS "serverId", input,
          status::text AS status, started_at AS "startedAt"
   FROM workflow_runs WHERE id = $1::text FOR UPDATE`,
  (r) => ({
    id: r.id as string,
    orgId: (r.orgId as string | null) ?? null,
    kind: r.kind as string,
    region: r.region as string,
    clusterId: (r.clusterId as string | null) ?? null,
    serverId: (r.serverId as string | null) ?? null,
    input: r.input,
    status: r.status as string,
    startedAt: (r.startedAt as Date | null) ?? null,
  }),
);

/** Wakes a region's workers (NOTIFY, delivered at commit): a job of theirs is queued. */
export const wakeRegionWorkers = command<[region: string]>(
  'workflows.wake_region_workers',
  `SELECT pg_notify('${RUN_STARTED_CHANNEL}', $1::text)`,
);
