// Arc projects: list, get, create (names unique per organization, optional default region),
// change the default region (changes audited). Every function acts in one organization.
import { actorMetadata, type Actor } from '../audit/actor';
import { auditParam } from '../audit/audit-cte';
import type { OrgContext } from '../auth/identity';
import { read, writeStatement } from '../db/access';
import { IDEMPOTENCY_TTL_HOURS, idempotentStatement } from '../db/idempotency';
import { replayOf } from '../db/idempotency-cte';
import { isId, newId } from '../ids';
import { decodeCursor } from '../db/cursor';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { notWritable } from '../organizations/writable';
import { refusedAtLimit } from '../db/errors';
import { changed as identityChanged } from '../auth/identity-cache';
import { allowedRegionOrNull } from '../region/allowed';
import { webhookEventFor } from '../webhooks/event-cte';
import { createProjectStatement, updateProjectRegionStatement } from './projects.sql';
import { getProject, listProjects, toView, type ProjectView } from './repository';

/**
 * Live projects an organization may hold: far beyond what people organize by hand, and a bound on
 * what one script (or a stolen key) can add to every list. The database enforces it (the
 * `projects_cap` trigger, last defined by migration 20261231000000_project_deletion, holds the
 * same number).
 */
export const MAX_PROJECTS = 1000;
/** The SQLSTATE the trigger raises at the cap. */
const PROJECTS_CAP_STATE = 'MLIM1';

export function projectsOf(req: DataRequest, orgId: string, page: { limit: number; cursor?: string }) {
  const [afterId] = page.cursor !== undefined ? (decodeCursor(page.cursor, 1) ?? []) : [];
  if (page.cursor !== undefined && !isId(afterId, 'prj')) {
    throw new AppError('invalid_request', 'cursor: not one this API returned; start again without it');
  }
  return read(req, (db) => listProjects(db, orgId, { limit: page.limit, afterId }));
}

export async function projectOf(req: DataRequest, orgId: string, id: string) {
  const project = await read(req, (db) => getProject(db, orgId, id));
  if (!project) throw new AppError('not_found', `no project ${id}`);
  return project;
}

export async function createProjectIn(
  req: DataRequest,
  org: OrgContext,
  input: { name: string; default_region?: string | null },
  actor: Omit<Actor, 'orgId'>,
) {
  const defaultRegion = allowedRegionOrNull(org.allowedRegions, input.default_region ?? null);
  const createdAt = new Date();
  const body = toView({ id: newId('prj'), name: input.name, defaultRegion, createdAt });
  const { values: event, hint } = await webhookEventFor('project.created', body, createdAt, org);
  // One statement, sent with the bookmark: one round trip (docs/flows/reads-and-writes.md).
  return idempotentStatement<ProjectView>(
    req,
    { op: 'projects.create', input },
    async (send, record) => {
      const [r] = await sendCapped(() =>
        send(
          createProjectStatement,
          org.id,
          body.id,
          input.name,
          defaultRegion,
          record?.key ?? null,
          record?.requestHash ?? null,
          record ? JSON.stringify(body) : null,
          IDEMPOTENCY_TTL_HOURS,
          createdAt,
          auditParam({
            action: 'project.create',
            targetType: 'project',
            orgId: org.id,
            actorId: actor.userId,
            requestId: req.requestId,
            metadata: { name: input.name, default_region: defaultRegion, ...actorMetadata(actor) },
          }),
          ...event,
        ),
      );
      if (!r) throw new Error('project create returned no row');
      if (r.prior) return replayOf<ProjectView>(r.prior);
      if (r.created) return { status: 201, body };
      if (!r.writable) throw await notWritable(org.id, org.slug, 'new projects');
      throw new AppError('conflict', `a project named ${input.name} exists already`);
    },
    { hint },
  );
}

/** The create's statement, its refusal at the cap answered as 409 limit_exceeded. */
function sendCapped<T>(send: () => Promise<T>): Promise<T> {
  return refusedAtLimit(
    PROJECTS_CAP_STATE,
    MAX_PROJECTS,
    () =>
      `this organization holds ${MAX_PROJECTS} projects, the most it may: delete one no longer used, or use an existing one`,
    send,
  );
}

export async function setProjectDefaultRegion(
  req: DataRequest,
  org: OrgContext,
  id: string,
  region: string | null,
  actor: Omit<Actor, 'orgId'>,
): Promise<ProjectView> {
  const checked = allowedRegionOrNull(org.allowedRegions, region);
  const at = new Date();
  // One statement, sent with the bookmark: one round trip (docs/flows/reads-and-writes.md).
  const [r] = await writeStatement(req, (send) =>
    send(
      updateProjectRegionStatement,
      org.id,
      id,
      checked,
      at,
      auditParam({
        action: 'project.update',
        targetType: 'project',
        orgId: org.id,
        actorId: actor.userId,
        requestId: req.requestId,
        metadata: { default_region: checked, ...actorMetadata(actor) },
      }),
    ),
  );
  if (!r) throw new Error('project update returned no row');
  if (!r.project) {
    if (!r.writable) throw await notWritable(org.id, org.slug, 'project changes');
    throw new AppError('not_found', `no project ${id}`);
  }
  identityChanged([`project:${id}`], { lsn: req.consistency.newBookmark }); // a session's project default is part of the session
  const p = r.project;
  return toView({ id: p.id, name: p.name, defaultRegion: p.default_region, createdAt: new Date(p.created_at) });
}
