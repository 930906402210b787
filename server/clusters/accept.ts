// Accepting a cluster create in one statement on the primary (accept.sql.ts): what it checks,
// how it races moves, removals and other creates: docs/flows/cluster-create.md#the-accept-statement.
import type { SendOne } from '../db/access';
import { IDEMPOTENCY_TTL_HOURS, type IdempotencyRecord, type PriorRecord } from '../db/idempotency';
import { stepNames } from '../workflows/definition';
import { queueName, RUN_STARTED_CHANNEL, stepJobCte } from '../workflows/queue';
import { acceptClusterStatement, JOB_FIRST_PARAM } from './accept.sql';
import type { CommitHint } from '../db/write-positions';
import { GPU_TEMPLATES } from './capacity';
import { createClusterWorkflow } from './create-workflow';

/** The unique index that keeps live cluster names unique in an organization. */
export const LIVE_NAME_INDEX = 'clusters_live_name_key';

export interface Acceptance {
  clusterId: string;
  runId: string;
  orgId: string;
  /** Null: the organization's default project (its first by name), resolved by the statement. */
  projectId: string | null;
  region: string;
  name: string;
  template: string;
  gpu: boolean;
  nodeCount: number;
  version: string;
  createdAt: Date;
  runInput: Record<string, unknown>;
  /** With an Idempotency-Key: the record to keep, and the body a retry gets back. */
  record?: IdempotencyRecord & { status: number; body: unknown };
  /** The `cluster.create` event, inserted with the cluster (auditParam). */
  audit: string;
}

export interface AcceptOutcome {
  /** A fresh record under the request's Idempotency-Key: nothing was changed, this is the answer. */
  prior?: PriorRecord<unknown>;
  /** Whether the cluster and its run were inserted. */
  created: boolean;
  /** The project (named, or the default one) found in the organization; null when none. */
  projectId: string | null;
  /** The region is still one of the organization's (the removal race: docs/flows/cluster-create.md). */
  regionAllowed: boolean;
  /** The organization is active (not held read-only by a workspace move). */
  orgWritable: boolean;
  /** The ID of a live cluster of the same name, if any. */
  clashId: string | null;
  /**
   * Free servers of the template's kind in the region before this create: exact when the create
   * was refused for capacity, otherwise at least the nodes requested (the count stops there).
   */
  free: number;
  /** The region's workflow queue is installed (without it nothing is inserted). */
  queueInstalled: boolean;
}

const STEPS = stepNames(createClusterWorkflow);

/** Runs the acceptance statement (docs/flows/cluster-create.md#the-accept-statement). */
export async function acceptCluster(send: SendOne, a: Acceptance): Promise<AcceptOutcome> {
  const job = await stepJobCte(a.region, 0, 'run', JOB_FIRST_PARAM);
  const params: unknown[] = [
    a.projectId, // $1
    a.orgId, // $2
    a.name, // $3
    a.region, // $4
    a.gpu, // $5
    GPU_TEMPLATES, // $6
    a.nodeCount, // $7
    a.clusterId, // $8
    a.template, // $9
    a.version, // $10
    a.createdAt, // $11
    a.runId, // $12
    JSON.stringify(a.runInput), // $13
    STEPS, // $14
    queueName(a.region), // $15
    a.record?.key ?? null, // $16
    a.record ? JSON.stringify({ hash: a.record.requestHash, status: a.record.status, body: a.record.body }) : null, // $17
    IDEMPOTENCY_TTL_HOURS, // $18
    a.audit, // $19
  ];
  // Prepared (each connection parses and plans it once), and sent with the bookmark: one round trip.
  const [r] = await send(acceptClusterStatement, ...params, ...job.values);
  if (!r) throw new Error('cluster accept returned no row');
  const created = r.clusters === 1;
  if (created && (r.steps !== STEPS.length || r.jobs !== 1 || r.records !== (a.record ? 1 : 0) || r.audits !== 1)) {
    // Cannot happen while the statement is what it says; if it does, say so rather than half-start a run.
    throw new Error(`cluster accept inserted an incomplete run: ${JSON.stringify(r)}`);
  }
  return {
    ...(r.prior
      ? {
          prior: {
            requestHash: r.prior.request_hash,
            status: r.prior.response_status,
            body: r.prior.response_body,
          },
        }
      : {}),
    created,
    projectId: r.project,
    regionAllowed: r.allowed,
    orgWritable: r.writable,
    clashId: r.clash,
    free: Number(r.free),
    queueInstalled: r.queue,
  };
}

/**
 * The wake-up for the region's workers, sent after the commit with the bookmark (in the same
 * flight, and only if the run `runId` exists by then: the create was accepted), not inside the
 * accept statement: PostgreSQL serializes the commits of transactions that NOTIFY (a
 * database-wide lock held through the WAL flush), so an in-statement NOTIFY made concurrent
 * creates wait for each other's fsync. It carries no data and is only a hint: a lost one (the
 * process dies right after the commit) costs the run at most one queue poll, since its job is
 * already committed.
 */
export function workersWakeUp(region: string, runId: string): CommitHint {
  return { channel: RUN_STARTED_CHANNEL, payload: region, ifExists: runId };
}
