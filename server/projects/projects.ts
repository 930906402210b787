// Arc projects: list, get, create (names unique per organization, optional default region),
// change the default region. Every function acts in one organization.
import type { OrgContext } from '../auth/identity';
import { read, write } from '../db/access';
import { idempotentWrite } from '../db/idempotency';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { changed as identityChanged } from '../auth/identity-cache';
import { allowedRegionOrNull } from '../region/allowed';
import { createProject, getProject, listProjects, projectNamed, setProjectRegion } from './repository';

export function projectsOf(req: DataRequest, orgId: string, page: { limit: number; cursor?: string }) {
  return read(req, (db) => listProjects(db, orgId, page));
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
) {
  const defaultRegion = allowedRegionOrNull(org.allowedRegions, input.default_region ?? null);
  return idempotentWrite(req, { op: 'projects.create', input }, async (tx) => {
    if (await projectNamed(tx, org.id, input.name)) {
      throw new AppError('conflict', `a project named ${input.name} exists already`);
    }
    return { status: 201, body: await createProject(tx, org.id, { name: input.name, defaultRegion }) };
  });
}

export async function setProjectDefaultRegion(req: DataRequest, org: OrgContext, id: string, region: string | null) {
  const checked = allowedRegionOrNull(org.allowedRegions, region);
  const project = await write(req, (tx) => setProjectRegion(tx, org.id, id, checked));
  if (!project) throw new AppError('not_found', `no project ${id}`);
  identityChanged([`project:${id}`]); // a session's project default is part of the session
  return project;
}
