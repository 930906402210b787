// Creating a cluster: the documented defaults, the checks that need no database, then the
// idempotent accept statement. docs/flows/cluster-create.md
import { actorMetadata } from '../audit/actor';
import { auditParam } from '../audit/audit-cte';
import type { OrgContext } from '../auth/identity';
import { read } from '../db/access';
import { uniqueViolation } from '../db/errors';
import { idempotentStatement, type PriorRecord } from '../db/idempotency';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { notWritable } from '../organizations/writable';
import { isId, newId } from '../ids';
import { firstProject, getProject } from '../projects/repository';
import { regionRegistry } from '../region/registry';
import { acceptCluster, LIVE_NAME_INDEX, workersWakeUp } from './accept';
import { createDefaults } from './defaults';
import { toClusterView } from './repository';
import { DEFAULT_TEMPLATE_ID, templateById, templateProblem } from './templates';

/** Who asks: the organization, the region the cascade chose, and the person (null for a key). */
export interface ClusterRequester {
  org: OrgContext;
  region: string;
  userId: string | null;
  /** The API key's prefix when a key asks (the audit trail names it). */
  keyPrefix?: string;
  /** The browser session's project: the default when the input names none. */
  sessionProjectId?: string | null;
}

export interface CreateClusterInput {
  name: string;
  /** Default: the session's project, else the organization's default project (its first by name). */
  project_id?: string;
  /** Default: DEFAULT_TEMPLATE_ID. */
  template?: string;
  /** Default: the template's minimum. */
  node_count?: number;
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
  // Null: the organization's default project, found by the accept statement itself (no extra round trip).
  const projectId = input.project_id ?? who.sessionProjectId ?? null;
  if (projectId !== null && !isId(projectId, 'prj')) {
    throw invalidField('project_id', 'project_id must be a project ID (prj_…)');
  }
  const template = templateById(input.template ?? DEFAULT_TEMPLATE_ID)!;
  const nodeCount = input.node_count ?? template.minNodes;
  const version = input.version ?? template.versions[0]!;
  const problem = templateProblem(template, nodeCount, version);
  if (problem) throw invalidField(problem.path, problem.message);
  const createdAt = new Date();
  const cluster = toClusterView({
    id: newId('cls'),
    name: input.name,
    region,
    projectId: projectId ?? '', // the default project's ID is filled in from the statement's answer
    template: template.id,
    nodeCount,
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
    {
      op: 'clusters.create',
      input: { ...input, project_id: projectId, template: template.id, node_count: nodeCount },
      region,
    },
    async (send, record) => {
      let outcome;
      try {
        outcome = await acceptCluster(send, {
          clusterId: cluster.id,
          runId: body.run_id,
          orgId: org.id,
          projectId,
          region,
          name: input.name,
          template: template.id,
          gpu: template.gpu,
          nodeCount,
          version,
          createdAt,
          runInput: { template: template.id, node_count: nodeCount, version, requested_by: who.userId },
          record: record && { ...record, status: 202, body },
          audit: auditParam({
            action: 'cluster.create',
            targetType: 'cluster',
            orgId: org.id,
            actorId: who.userId,
            region,
            requestId: req.requestId,
            metadata: {
              name: input.name,
              template: template.id,
              node_count: nodeCount,
              version,
              run_id: body.run_id,
              ...actorMetadata(who),
            },
          }),
        });
      } catch (e) {
        // Another create of the same name committed between our check and our insert.
        if (uniqueViolation(e) === LIVE_NAME_INDEX) {
          throw new AppError('conflict', `a cluster named ${input.name} exists already`);
        }
        throw e;
      }
      if (outcome.prior) return { prior: outcome.prior as PriorRecord<typeof body> };
      if (outcome.created) {
        body.cluster.project_id = outcome.projectId!;
        return { status: 202, body };
      }
      if (!outcome.projectId) {
        throw projectId
          ? new AppError('not_found', `no project ${projectId}`)
          : new AppError('not_found', 'this organization has no project yet: create one, or send project_id');
      }
      if (!outcome.orgWritable) throw await notWritable(org.id, org.slug, 'new clusters');
      if (!outcome.regionAllowed) {
        throw new AppError('region_not_allowed', `${region} is no longer one of your organization’s regions`);
      }
      if (outcome.clashId) {
        throw new AppError('conflict', `a cluster named ${input.name} exists already (${outcome.clashId})`);
      }
      if (!outcome.queueInstalled) throw new Error(`the workflow queue of ${region} is not installed`);
      throw new AppError(
        'insufficient_capacity',
        `${region} has ${outcome.free} ${template.gpu ? 'GPU' : 'CPU'} servers free for ${template.id}; ${nodeCount} requested`,
        { extra: { region, available: outcome.free } },
      );
    },
    { hint: workersWakeUp(region, body.run_id) },
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
