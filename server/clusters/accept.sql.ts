// The cluster create's one statement: checks, inserts and the first step's job in one round
// trip (docs/flows/cluster-create.md#the-accept-statement).
import { auditCte } from '../audit/audit-cte';
import { priorRecordCte, type PriorRow } from '../db/idempotency-cte';
import { statement } from '../db/sql';
import { QUEUE_SCHEMA, stepJobInsert } from '../workflows/queue';

export interface AcceptRow {
  prior: PriorRow | null;
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
  audits: number;
}

/** Parameters $1…$19 are the cluster's (accept.ts names each); the job's follow from $20. */
export const JOB_FIRST_PARAM = 20;

const text = `
WITH ${priorRecordCte({ org: 2, key: 16, ttlHours: 18 })}, project AS (
  -- The named project, else the first by name; live, and held FOR SHARE so that a delete of it
  -- waits for this create (and one that committed first leaves no row here: 404).
  SELECT id FROM projects
  WHERE org_id = $2 AND deleted_at IS NULL
    AND id = COALESCE($1::text, (SELECT id FROM projects WHERE org_id = $2 AND deleted_at IS NULL ORDER BY name, id LIMIT 1))
  FOR SHARE
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
), job AS (${stepJobInsert('run', JOB_FIRST_PARAM)}
), record AS (
  INSERT INTO idempotency_keys (org_id, key, request_hash, response_status, response_body)
  SELECT $2, $16, r.hash, r.status, jsonb_set(r.body, '{cluster,project_id}', to_jsonb(accepted.id))
  FROM cluster, accepted, jsonb_to_record($17::jsonb) AS r(hash text, status int, body jsonb)
  WHERE $16::text IS NOT NULL
  RETURNING 1
), ${auditCte('audit', 'cluster', 19, 11)}
SELECT (SELECT row_to_json(prior) FROM prior) AS prior, (SELECT id FROM project) AS project, EXISTS (SELECT 1 FROM allowed) AS allowed, EXISTS (SELECT 1 FROM writable) AS writable, (SELECT id FROM clash) AS clash, (SELECT n FROM free) AS free,
       EXISTS (SELECT 1 FROM queue) AS queue,
       (SELECT count(*) FROM cluster)::int AS clusters, (SELECT count(*) FROM steps)::int AS steps,
       (SELECT count(*) FROM job)::int AS jobs, (SELECT count(*) FROM record)::int AS records,
       (SELECT count(*) FROM audit)::int AS audits`;

/** Accepts a cluster create, or says why not (server/clusters/accept.ts runs it). */
export const acceptClusterStatement = statement<AcceptRow>('clusters.accept', text, (r) => ({
  prior: (r.prior as AcceptRow['prior']) ?? null,
  project: (r.project as string | null) ?? null,
  allowed: r.allowed === true,
  writable: r.writable === true,
  clash: (r.clash as string | null) ?? null,
  free: Number(r.free),
  queue: r.queue === true,
  clusters: Number(r.clusters),
  steps: Number(r.steps),
  jobs: Number(r.jobs),
  records: Number(r.records),
  audits: Number(r.audits),
}));
