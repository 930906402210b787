// Creating a cluster: checks that need no database (region up, IDs, template limits), then one
// idempotent statement on the primary (accept.ts) that checks the project, the name and the
// region's free capacity, inserts the cluster (`pending`) and starts its create-cluster run.
import type { OrgContext } from '../auth/identity';
import { read } from '../db/access';
import { uniqueViolation } from '../db/errors';
import { idempotentStatement, type PriorRecord } from '../db/idempotency';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { isId, newId } from '../ids';
import { firstProject, getProject } from '../projects/repository';
import { regionRegistry } from '../region/registry';
import { acceptCluster, LIVE_NAME_INDEX } from './accept';
import { createDefaults } from './defaults';
import { toClusterView } from './repository';
import { templateById, templateProblem } from './templates';

/** Who asks: the organization, the region the cascade chose, and the person (null for a key). */
export interface ClusterRequester {
  org: OrgContext;
  region: string;
  userId: string | null;
}

export interface CreateClusterInput {
  name: string;
  project_id: string;
  template: string;
  node_count: number;
  version?: string;
}

/** A field-level invalid_request, as zod's are. */
export function invalidField(path: string, message: string): AppError {
  return new AppError('invalid_request', message, { extra: { details: [{ path: [path], message }] } });
}

export async function createCluster(req: DataRequest, who: ClusterRequester, input: CreateClusterInput) {
  const { org, region } = who;
  const status = (await regionRegistry()).get(region)?.status;
  if (status === 'draining') {
    throw new AppError('region_draining', `${region} is draining: it takes no new clusters; choose another region`, {
      extra: { region },
    });
  }
  if (status === 'down') {
    throw new AppError('region_unavailable', `${region} is down: nothing was created, retry later`, {
      retryAfter: 60,
    });
  }
  if (!isId(input.project_id, 'prj')) throw invalidField('project_id', 'project_id must be a project ID (prj_…)');
  const template = templateById(input.template)!;
  const version = input.version ?? template.versions[0]!;
  const problem = templateProblem(template, input.node_count, version);
  if (problem) throw invalidField(problem.path, problem.message);
  const createdAt = new Date();
  const cluster = toClusterView({
    id: newId('cls'),
    name: input.name,
    region,
    projectId: input.project_id,
    template: template.id,
    nodeCount: input.node_count,
    version,
    status: 'pending',
    statusReason: null,
    createdAt,
    updatedAt: createdAt,
    readyAt: null,
  });
  const body = { cluster, run_id: newId('run') };
  return idempotentStatement<typeof body>(
    req,
    { op: 'clusters.create', input: { ...input }, region },
    async (db, record) => {
      let outcome;
      try {
        outcome = await acceptCluster(db, {
          clusterId: cluster.id,
          runId: body.run_id,
          orgId: org.id,
          projectId: input.project_id,
          region,
          name: input.name,
          template: template.id,
          gpu: template.gpu,
          nodeCount: input.node_count,
          version,
          createdAt,
          runInput: { template: template.id, node_count: input.node_count, version, requested_by: who.userId },
          record: record && { ...record, status: 202, body },
        });
      } catch (e) {
        // Another create of the same name committed between our check and our insert.
        if (uniqueViolation(e) === LIVE_NAME_INDEX) {
          throw new AppError('conflict', `a cluster named ${input.name} exists already`);
        }
        throw e;
      }
      if (outcome.prior) return { prior: outcome.prior as PriorRecord<typeof body> };
      if (outcome.created) return { status: 202, body };
      if (!outcome.projectFound) throw new AppError('not_found', `no project ${input.project_id}`);
      if (!outcome.orgWritable) {
        throw new AppError('workspace_moving', `the workspace ${org.slug} is moving: it takes no new clusters`, {
          retryAfter: 120,
        });
      }
      if (!outcome.regionAllowed) {
        throw new AppError('region_not_allowed', `${region} is no longer one of your organization’s regions`);
      }
      if (outcome.clashId) {
        throw new AppError('conflict', `a cluster named ${input.name} exists already (${outcome.clashId})`);
      }
      if (!outcome.queueInstalled) throw new Error(`the workflow queue of ${region} is not installed`);
      throw new AppError(
        'insufficient_capacity',
        `${region} has ${outcome.free} ${template.gpu ? 'GPU' : 'CPU'} servers free for ${template.id}; ${input.node_count} requested`,
        { extra: { region, available: outcome.free } },
      );
    },
  );
}

export interface DefaultsCaller {
  org: OrgContext;
  /** The session's project and the user's own default region (none for an API key). */
  sessionProjectId?: string | null;
  userRegion?: string | null;
}

/** What a create would use for the fields left out, for `project_id` or the caller's project. */
export async function clusterCreateDefaults(req: DataRequest, who: DefaultsCaller, projectId?: string) {
  if (projectId !== undefined && !isId(projectId, 'prj')) {
    throw invalidField('project_id', 'project_id must be a project ID (prj_…)');
  }
  const wanted = projectId ?? who.sessionProjectId ?? undefined;
  const project = await read(
    req,
    async (db) =>
      (wanted ? await getProject(db, who.org.id, wanted) : null) ?? (projectId ? null : firstProject(db, who.org.id)),
  );
  if (projectId && !project) throw new AppError('not_found', `no project ${projectId}`);
  return {
    project_id: project?.id ?? null,
    ...createDefaults({
      allowedRegions: who.org.allowedRegions,
      projectRegion: project?.default_region,
      userRegion: who.userRegion,
      orgRegion: who.org.defaultRegion,
    }),
  };
}
