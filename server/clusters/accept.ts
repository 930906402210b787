// Accepting a cluster create in ONE statement on the primary: the Idempotency-Key's earlier
// outcome if there is one (then nothing else happens), the checks (the project is the
// organization's — or, when the caller named none, the organization's default project, its first
// by name: a second branch of the same lookup, which a named project skips as a one-time filter,
// so either case is one index probe —, no live cluster has the name, the region has the free
// servers) and, only when they pass, the inserts (the cluster, its create-cluster run and steps,
// the first step's job and the Idempotency-Key record); the workers' wake-up follows the commit,
// sent with the bookmark (workersWakeUp). One round trip instead of a dozen in an interactive
// transaction (sent straight to node-postgres: Prisma's query interpreter would cost more than
// the statement); a statement is atomic, so all of it commits or none.
//
// An operator removing the region from the organization (server/atlas/organizations.ts) and a
// create racing it: the statement holds the organization's row for the region (FOR KEY SHARE)
// before inserting, so the removal waits for the create and then sees its cluster (409), or the
// create waits for the removal and finds the region gone (403 region_not_allowed).
//
// A workspace move (server/moves) racing a create: the statement holds the organization's row
// while it is `active` (FOR SHARE), so the move's read-only switch waits for the create (and the
// move then waits for its run), or the create waits for the switch and finds it `moving`
// (503 workspace_moving): no run of a moving workspace ever starts.
//
// Two creates of one name racing each other: the partial unique index `clusters_live_name_key`
// refuses the second (each statement's check reads its own snapshot, so the index is the
// guarantee, the check only the friendly message). Capacity is checked, not reserved: two creates
// may both see the last free servers, and the run's allocation step is what finally refuses.
// The check reads what it needs and no more: the nodes promised to clusters not yet allocated
// (an index-only sum over clusters_promised_idx, which holds just those), then available servers
// only up to that many plus the request (a region of thousands of servers costs what one of ten
// does).
import { poolOf, type Db } from '../db/client';
import { IDEMPOTENCY_TTL_HOURS, type IdempotencyRecord, type PriorRecord } from '../db/idempotency';
import { stepNames } from '../workflows/definition';
import { queueName, RUN_STARTED_CHANNEL, stepJobCte, QUEUE_SCHEMA } from '../workflows/queue';
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
}

export interface AcceptOutcome {
  /** A fresh record under the request's Idempotency-Key: nothing was changed, this is the answer. */
  prior?: PriorRecord<unknown>;
  /** Whether the cluster and its run were inserted. */
  created: boolean;
  /** The project (named, or the default one) found in the organization; null when none. */
  projectId: string | null;
  /** The region is still one of the organization's (see the file's header). */
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

// Parameters $1…$18 are the cluster's; the job's follow from $19.
const JOB_FIRST_PARAM = 19;

function statement(jobSql: string): string {
  return `
WITH prior AS (
  SELECT request_hash, response_status, response_body FROM idempotency_keys
  WHERE org_id = $2 AND key = $16 AND created_at >= now() - make_interval(hours => $18)
), project AS (
  SELECT id FROM projects WHERE id = $1::text AND org_id = $2
  UNION ALL
  (SELECT id FROM projects WHERE $1::text IS NULL AND org_id = $2 ORDER BY name, id LIMIT 1)
), allowed AS (
  SELECT 1 FROM organization_regions WHERE org_id = $2 AND region = $4 FOR KEY SHARE
), writable AS (
  SELECT 1 FROM organizations WHERE id = $2 AND status = 'active' FOR SHARE
), clash AS (
  SELECT id FROM clusters WHERE org_id = $2 AND name = $3 AND status <> 'deleted' LIMIT 1
), promised AS (
  SELECT COALESCE(sum(c.node_count), 0)::int AS n FROM clusters c
  WHERE c.status IN ('pending', 'provisioning') AND c.region = $4 AND (c.template = ANY($6::text[])) = $5
    AND c.allocated_at IS NULL
), available AS (
  SELECT count(*)::int AS n FROM (
    SELECT 1 FROM servers WHERE status = 'available' AND region = $4 AND (gpu_count > 0) = $5
    LIMIT (SELECT n FROM promised) + $7
  ) s
), free AS (
  SELECT GREATEST(0, (SELECT n FROM available) - (SELECT n FROM promised))::int AS n
), queue AS (
  SELECT name FROM ${QUEUE_SCHEMA}.queue WHERE name = $15
), accepted AS (
  SELECT id FROM project
  WHERE NOT EXISTS (SELECT 1 FROM prior) AND EXISTS (SELECT 1 FROM allowed) AND EXISTS (SELECT 1 FROM writable) AND NOT EXISTS (SELECT 1 FROM clash) AND (SELECT n FROM free) >= $7 AND EXISTS (SELECT 1 FROM queue)
), cluster AS (
  INSERT INTO clusters (id, org_id, project_id, region, name, template, node_count, version, status, created_at, updated_at)
  SELECT $8, $2, accepted.id, $4, $3, $9, $7, $10, 'pending', $11, $11 FROM accepted
  RETURNING id
), run AS (
  INSERT INTO workflow_runs (id, org_id, kind, region, cluster_id, status, input, created_at)
  SELECT $12, $2, 'create-cluster', $4, cluster.id, 'queued', $13::jsonb, $11 FROM cluster
  RETURNING id
), steps AS (
  INSERT INTO workflow_steps (run_id, position, name)
  SELECT run.id, s.ord - 1, s.name FROM run, unnest($14::text[]) WITH ORDINALITY AS s(name, ord)
  RETURNING 1
), job AS (${jobSql}
), record AS (
  INSERT INTO idempotency_keys (org_id, key, request_hash, response_status, response_body)
  SELECT $2, $16, r.hash, r.status, jsonb_set(r.body, '{cluster,project_id}', to_jsonb(accepted.id))
  FROM cluster, accepted, jsonb_to_record($17::jsonb) AS r(hash text, status int, body jsonb)
  WHERE $16::text IS NOT NULL
  RETURNING 1
)
SELECT (SELECT row_to_json(prior) FROM prior) AS prior, (SELECT id FROM project) AS project, EXISTS (SELECT 1 FROM allowed) AS allowed, EXISTS (SELECT 1 FROM writable) AS writable, (SELECT id FROM clash) AS clash, (SELECT n FROM free) AS free,
       EXISTS (SELECT 1 FROM queue) AS queue,
       (SELECT count(*) FROM cluster)::int AS clusters, (SELECT count(*) FROM steps)::int AS steps,
       (SELECT count(*) FROM job)::int AS jobs, (SELECT count(*) FROM record)::int AS records`;
}

/** The statement and its job's parameters depend only on the region: built once per region. */
const statements = new Map<string, Promise<{ text: string; values: unknown[] }>>();
function regionStatement(region: string) {
  let built = statements.get(region);
  if (!built) {
    built = stepJobCte(region, 0, 'run', JOB_FIRST_PARAM).then((job) => ({
      text: statement(job.sql),
      values: job.values,
    }));
    statements.set(region, built);
  }
  return built;
}

interface Row {
  prior: { request_hash: string; response_status: number; response_body: unknown } | null;
  project: string | null;
  allowed: boolean;
  writable: boolean;
  clash: string | null;
  free: number;
  queue: boolean;
  clusters: number;
  steps: number;
  jobs: number;
  records: number;
}

/** Runs the acceptance statement (see the file's header). */
export async function acceptCluster(db: Db, a: Acceptance): Promise<AcceptOutcome> {
  const job = await regionStatement(a.region);
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
  ];
  // Named: each connection parses and plans it once, not on every create.
  const { rows } = await poolOf(db).query<Row>({
    name: 'meridian_accept_cluster',
    text: job.text,
    values: [...params, ...job.values],
  });
  const r = rows[0]!;
  const created = r.clusters === 1;
  if (created && (r.steps !== STEPS.length || r.jobs !== 1 || r.records !== (a.record ? 1 : 0))) {
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
 * The wake-up for the region's workers, sent after the commit with the bookmark (the caller sets
 * it as the request's commit hint), not inside the accept statement: PostgreSQL serializes the
 * commits of transactions that NOTIFY (a database-wide lock held through the WAL flush), so an
 * in-statement NOTIFY made concurrent creates wait for each other's fsync. It carries no data and
 * is only a hint: a lost one (the process dies right after the commit) costs the run at most one
 * queue poll, since its job is already committed.
 */
export function workersWakeUp(region: string): CommitHint {
  return { channel: RUN_STARTED_CHANNEL, payload: region };
}
