// Hand-written SQL of projects: the create, the default region's change (projects.ts) and the
// delete (deletion.ts), each one statement with its events; the purge of long-deleted projects.
import { auditCte } from '../audit/audit-cte';
import { keepRecordCte, priorRecordCte, type PriorRow } from '../db/idempotency-cte';
import { command, statement } from '../db/sql';
import { webhookEventCtes } from '../webhooks/event-cte';
import { projectViewSql, type ProjectView } from './repository';

export interface CreateRow {
  prior: PriorRow | null;
  /** The organization is active (held FOR SHARE: a move's switch to read-only waits for this create). */
  writable: boolean;
  /** The new project's ID; null when nothing was inserted (a fresh record, a taken name, not writable). */
  created: string | null;
  records: number;
  /** project.created events written (0 when no endpoint wants it). */
  events: number;
}

/**
 * Creates a project unless the name is taken in the organization, with its Idempotency-Key record
 * ($5 null: none), or answers the fresh record already under the key. $1 org, $2 ID, $3 name,
 * $4 default region, $5 key, $6 request hash, $7 the body a retry gets, $8 the TTL in hours,
 * $9 created at, $10 the `project.create` event (auditParam), $11… the `project.created` webhook
 * event (webhookEventParams).
 */
export const createProjectStatement = statement<
  CreateRow,
  [
    orgId: string,
    id: string,
    name: string,
    defaultRegion: string | null,
    key: string | null,
    requestHash: string | null,
    replayBody: string | null,
    ttlHours: number,
    createdAt: Date,
    audit: string,
    eventId: string,
    eventPayload: string,
    regionOrder: readonly string[],
  ]
>(
  'projects.create',
  `WITH ${priorRecordCte({ org: 1, key: 5, ttlHours: 8 })}, writable AS (
    SELECT id, home_region, default_region FROM organizations
    WHERE id = $1::text AND status = 'active' AND NOT EXISTS (SELECT 1 FROM prior)
    FOR SHARE
  ), created AS (
    INSERT INTO projects (id, org_id, name, default_region, created_at, updated_at)
    SELECT $2::text, w.id, $3::text, $4::text, $9::timestamptz, $9::timestamptz FROM writable w
    ON CONFLICT (org_id, name) WHERE deleted_at IS NULL DO NOTHING
    RETURNING id
  ), ${keepRecordCte('created', { org: 1, key: 5, hash: 6, at: 9, status: 201, body: '$7::jsonb' })},
  ${auditCte('audit', 'created', 10, 9)}, ${webhookEventCtes('project.created', 'created', 'writable', 11)}
  SELECT (SELECT row_to_json(p) FROM prior p) AS prior,
         EXISTS (SELECT 1 FROM writable) AS writable,
         (SELECT id FROM created) AS created,
         (SELECT count(*) FROM record)::int AS records,
         (SELECT count(*) FROM hook_event)::int AS events`,
  (r) => ({
    prior: (r.prior as PriorRow | null) ?? null,
    writable: r.writable === true,
    created: (r.created as string | null) ?? null,
    records: Number(r.records),
    events: Number(r.events),
  }),
);

export interface UpdateRegionRow {
  /** The organization is active (held FOR SHARE, as the create holds it). */
  writable: boolean;
  /** The live project after the change; null when none of the organization has the ID. */
  project: { id: string; name: string; default_region: string | null; created_at: string } | null;
}

/**
 * Sets a live project's default region, with its `project.update` event (auditParam $5), in an
 * active organization held FOR SHARE. $1 org, $2 project, $3 the region (null: none), $4 now.
 */
export const updateProjectRegionStatement = statement<
  UpdateRegionRow,
  [orgId: string, id: string, defaultRegion: string | null, at: Date, audit: string]
>(
  'projects.update_default_region',
  `WITH writable AS (
    SELECT id FROM organizations WHERE id = $1::text AND status = 'active' FOR SHARE
  ), updated AS (
    UPDATE projects p SET default_region = $3::text, updated_at = $4::timestamptz FROM writable w
    WHERE p.id = $2::text AND p.org_id = w.id AND p.deleted_at IS NULL
    RETURNING p.id, p.name, p.default_region, p.created_at
  ), ${auditCte('audit', 'updated', 5, 4)}
  SELECT EXISTS (SELECT 1 FROM writable) AS writable,
         (SELECT row_to_json(u) FROM updated u) AS project,
         (SELECT count(*) FROM audit)::int AS events`,
  (r) => ({
    writable: r.writable === true,
    project: (r.project as UpdateRegionRow['project']) ?? null,
  }),
);

export interface DeleteRow {
  prior: PriorRow | null;
  /** The organization's status, its row held FOR SHARE (null when a record answered). */
  status: string | null;
  /** A live project of the organization had the ID (as the statement began). */
  found: boolean;
  /** The project as deleted (the API's view, built by the statement); null when nothing changed. */
  deleted: ProjectView | null;
}

/**
 * Marks a live project deleted, with its Idempotency-Key record ($3 null: none), its
 * `project.delete` event (auditParam $7) and its `project.deleted` webhook event ($8…, the payload's
 * data built from the row), or answers the fresh record under the key. The organization's row is
 * held FOR SHARE before the project's is locked, in the order a move's switch takes them; the
 * `projects_live_clusters` trigger refuses a project that holds live clusters ('MLIV1'). $1 org,
 * $2 project, $4 request hash, $5 the TTL in hours, $6 now.
 */
export const deleteProjectStatement = statement<
  DeleteRow,
  [
    orgId: string,
    id: string,
    key: string | null,
    requestHash: string | null,
    ttlHours: number,
    at: Date,
    audit: string,
    eventId: string,
    eventPayload: string,
    regionOrder: readonly string[],
  ]
>(
  'projects.delete',
  `WITH ${priorRecordCte({ org: 1, key: 3, ttlHours: 5 })}, org AS (
    SELECT id, status::text AS status, home_region, default_region FROM organizations
    WHERE id = $1::text AND NOT EXISTS (SELECT 1 FROM prior)
    FOR SHARE
  ), writable AS (
    SELECT id, home_region, default_region FROM org WHERE status = 'active'
  ), deleted AS (
    UPDATE projects p SET deleted_at = $6::timestamptz, updated_at = $6::timestamptz FROM writable w
    WHERE p.id = $2::text AND p.org_id = w.id AND p.deleted_at IS NULL
    RETURNING p.id, ${projectViewSql('p')} AS body
  ), ${keepRecordCte('deleted', { org: 1, key: 3, hash: 4, at: 6, status: 200, body: 'deleted.body' })},
  ${auditCte('audit', 'deleted', 7, 6, { metadata: `jsonb_build_object('name', deleted.body->'name')` })},
  ${webhookEventCtes('project.deleted', 'deleted', 'writable', 8, '(SELECT body FROM deleted)')}
  SELECT (SELECT row_to_json(p) FROM prior p) AS prior,
         (SELECT status FROM org) AS status,
         EXISTS (SELECT 1 FROM projects WHERE id = $2::text AND org_id = $1::text AND deleted_at IS NULL) AS found,
         (SELECT body FROM deleted) AS deleted,
         (SELECT count(*) FROM record)::int AS records,
         (SELECT count(*) FROM audit)::int AS events,
         (SELECT count(*) FROM hook_event)::int AS hooks`,
  (r) => ({
    prior: (r.prior as PriorRow | null) ?? null,
    status: (r.status as string | null) ?? null,
    found: r.found === true,
    deleted: (r.deleted as ProjectView | null) ?? null,
  }),
);

/**
 * Deletes projects deleted more than $1 days ago that no cluster names (a deleted cluster's
 * project stays with it), except in an organization being moved (its export and verify read the
 * same rows): the organizations held FOR SHARE, as the other sweeps do.
 */
export const purgeDeletedProjects = command<[retentionDays: number]>(
  'projects.purge_deleted',
  `WITH live AS (
    SELECT o.id FROM organizations o
     WHERE o.status <> 'moving'
       AND o.id IN (SELECT org_id FROM projects WHERE deleted_at < now() - make_interval(days => $1::int))
     FOR SHARE OF o
  )
  DELETE FROM projects p USING live
    WHERE p.org_id = live.id AND p.deleted_at < now() - make_interval(days => $1::int)
      AND NOT EXISTS (SELECT 1 FROM clusters c WHERE c.project_id = p.id)`,
);
