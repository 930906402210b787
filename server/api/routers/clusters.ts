// Arc clusters (read side): list, across every region the organization may use when the
// request names none (fan-out, each region read from its own replica, with per-region status
// and latency), and get.
import { z } from 'zod';
import { capacity } from '../../clusters/capacity';
import { createDefaults } from '../../clusters/defaults';
import { kubeconfig } from '../../clusters/kubeconfig';
import {
  decodeCursor,
  encodeCursor,
  getCluster,
  insertCluster,
  latestRunId,
  listClusters,
  liveClusterNamed,
  lockClusterName,
  markDeleting,
  toClusterView,
} from '../../clusters/repository';
import {
  DEFAULT_VERSION,
  KUBERNETES_VERSIONS,
  TEMPLATE_IDS,
  templateById,
  templateProblem,
} from '../../clusters/templates';
import { firstProject, getProject } from '../../projects/repository';
import { idempotentWrite, read, type IdempotentResult, type Tx } from '../../db/access';
import { authSecret } from '../../env';
import { AppError, isAppError } from '../../errors';
import { isId } from '../../ids';
import { regionRegistry } from '../../region/registry';
import { startRun } from '../../workflows/runs';
import { requireOrg, type Context } from '../context';
import { orgProcedure, router } from '../trpc';

const Cluster = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  project_id: z.string(),
  template: z.string(),
  node_count: z.number(),
  version: z.string(),
  status: z.string(),
  status_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  ready_at: z.string().nullable(),
});

const STATUSES = ['pending', 'provisioning', 'ready', 'failed', 'deleting'] as const;

const Accepted = z.object({ cluster: Cluster, run_id: z.string() });

function invalid(path: string, message: string): AppError {
  return new AppError('invalid_request', message, { extra: { details: [{ path: [path], message }] } });
}

type Accepted = z.infer<typeof Accepted>;

/** An idempotent write that starts a run: 202 Accepted, with `Location` pointing at the run (on replays too). */
async function acceptRun(
  ctx: Context,
  request: unknown,
  fn: (tx: Tx) => Promise<IdempotentResult<Accepted>>,
): Promise<Accepted> {
  const accepted = await idempotentWrite(ctx, request, fn);
  ctx.req.setHeader('Location', `/v1/workflow-runs/${accepted.run_id}`);
  return accepted;
}

function requester(ctx: Context): string | null {
  return ctx.identity.kind === 'session' ? ctx.identity.userId : null;
}

export const clustersRouter = router({
  list: orgProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/compute/clusters',
        summary: 'Clusters: of one region, or of every region your organization uses (fan-out)',
        tags: ['arc'],
      },
    })
    .input(
      z.object({
        region: z.string().optional().describe('Resolved by the cascade; omit to list every region'),
        project_id: z.string().optional(),
        status: z.enum(STATUSES).optional(),
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.string().max(200).optional(),
      }),
    )
    .output(
      z.object({
        data: z.array(Cluster),
        next_cursor: z.string().nullable(),
        regions: z.record(z.string(), z.object({ status: z.enum(['ok', 'error']), latency_ms: z.number() })).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const org = requireOrg(ctx);
      if (input.project_id !== undefined && !isId(input.project_id, 'prj')) {
        throw new AppError('invalid_request', 'project_id must be a project ID (prj_…)');
      }
      const after = input.cursor ? decodeCursor(input.cursor) : undefined;
      if (input.cursor && !after) throw new AppError('invalid_request', 'cursor is not one this API returned');
      const fanOut = ctx.region!.source === 'fan-out';
      const regions = fanOut ? ctx.region!.fanOut! : [ctx.region!.region];
      const filter = { projectId: input.project_id, status: input.status, after, limit: input.limit };
      const registry = await regionRegistry();
      const perRegion = await Promise.all(
        regions.map(async (region) => {
          const t = performance.now();
          if (fanOut && registry.get(region)?.status === 'down') {
            // An operator marked the region down: answer with the others rather than wait on it.
            return { region, rows: [], status: 'error' as const, latency: 0 };
          }
          try {
            const rows = await read(ctx, (db) => listClusters(db, org.id, { ...filter, region }), region);
            return { region, rows, status: 'ok' as const, latency: performance.now() - t };
          } catch (e) {
            if (!fanOut || !isAppError(e) || e.status !== 503) throw e;
            return { region, rows: [], status: 'error' as const, latency: performance.now() - t };
          }
        }),
      );
      if (perRegion.some((r) => r.status === 'error')) ctx.data.degraded ??= 'region_partial';
      const merged = perRegion
        .flatMap((r) => r.rows)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
      const page = merged.slice(0, input.limit);
      const last = page.at(-1);
      return {
        data: page.map(toClusterView),
        next_cursor:
          merged.length > input.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
        ...(fanOut
          ? {
              regions: Object.fromEntries(
                perRegion.map((r) => [r.region, { status: r.status, latency_ms: Math.round(r.latency * 100) / 100 }]),
              ),
            }
          : {}),
      };
    }),

  get: orgProcedure
    .meta({
      resource: { param: 'id', prefix: 'cls' },
      openapi: { method: 'GET', path: '/compute/clusters/{id}', summary: 'One cluster', tags: ['arc'] },
    })
    .input(z.object({ id: z.string() }))
    .output(Cluster.extend({ latest_run_id: z.string().nullable() }))
    .query(async ({ ctx, input }) => {
      const org = requireOrg(ctx);
      const found = await read(ctx, async (db) => {
        const cluster = await getCluster(db, org.id, input.id);
        return cluster && { ...cluster, latest_run_id: await latestRunId(db, org.id, cluster.id) };
      });
      if (!found) throw new AppError('not_found', `no cluster ${input.id}`);
      return found;
    }),

  defaults: orgProcedure
    .meta({ region: 'gateway' })
    .input(z.object({ project_id: z.string().optional() }).optional())
    .output(
      z.object({
        project_id: z.string().nullable(),
        template: z.string(),
        node_count: z.number(),
        version: z.string(),
        region: z.string().nullable(),
        region_source: z.enum(['project', 'user', 'organization', 'first-allowed']).nullable(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const org = requireOrg(ctx);
      const wanted = input?.project_id ?? (ctx.identity.kind === 'session' ? ctx.identity.project?.id : undefined);
      if (input?.project_id !== undefined && !isId(input.project_id, 'prj')) {
        throw invalid('project_id', 'project_id must be a project ID (prj_…)');
      }
      const project = await read(
        ctx,
        async (db) =>
          (wanted ? await getProject(db, org.id, wanted) : null) ??
          (input?.project_id ? null : firstProject(db, org.id)),
      );
      if (input?.project_id && !project) throw new AppError('not_found', `no project ${input.project_id}`);
      return {
        project_id: project?.id ?? null,
        ...createDefaults({
          allowedRegions: org.allowedRegions,
          projectRegion: project?.default_region,
          userRegion: ctx.identity.kind === 'session' ? ctx.identity.userRegion : null,
          orgRegion: org.defaultRegion,
        }),
      };
    }),

  create: orgProcedure
    .meta({
      successStatus: 202,
      openapi: {
        method: 'POST',
        path: '/compute/clusters',
        summary: 'Create a cluster (202: a create-cluster run provisions it; Location is the run)',
        tags: ['arc'],
      },
    })
    .input(
      z.object({
        name: z
          .string()
          .trim()
          .min(1)
          .max(40)
          .regex(/^[a-z][a-z0-9-]*$/, 'lowercase letters, digits and dashes, starting with a letter'),
        project_id: z.string().describe('prj_…'),
        template: z.enum(TEMPLATE_IDS),
        node_count: z.number().int().min(1).max(100),
        version: z.enum(KUBERNETES_VERSIONS).optional().describe(`default ${DEFAULT_VERSION}`),
        region: z.string().optional().describe('Resolved by the cascade; a single-region organization never names one'),
      }),
    )
    .output(Accepted)
    .mutation(async ({ ctx, input }) => {
      const org = requireOrg(ctx);
      const region = ctx.region!.region;
      if ((await regionRegistry()).get(region)?.status === 'down') {
        throw new AppError('region_unavailable', `${region} is down: nothing was created, retry later`, {
          retryAfter: 60,
        });
      }
      if (!isId(input.project_id, 'prj')) throw invalid('project_id', 'project_id must be a project ID (prj_…)');
      const template = templateById(input.template)!;
      const version = input.version ?? template.versions[0]!;
      const problem = templateProblem(template, input.node_count, version);
      if (problem) throw invalid(problem.path, problem.message);
      return acceptRun(ctx, { op: 'clusters.create', input, region }, async (tx) => {
        const project = await tx.project.findFirst({ where: { id: input.project_id, orgId: org.id } });
        if (!project) throw new AppError('not_found', `no project ${input.project_id}`);
        await lockClusterName(tx, org.id, input.name);
        const clash = await liveClusterNamed(tx, org.id, input.name);
        if (clash) throw new AppError('conflict', `a cluster named ${input.name} exists already (${clash.id})`);
        const free = (await capacity(tx, [region])).get(region)!;
        const available = template.gpu ? free.gpu : free.cpu;
        if (available < input.node_count) {
          throw new AppError(
            'insufficient_capacity',
            `${region} has ${available} ${template.gpu ? 'GPU' : 'CPU'} servers free for ${template.id}; ${input.node_count} requested`,
            { extra: { region, available } },
          );
        }
        const cluster = await insertCluster(tx, {
          orgId: org.id,
          projectId: project.id,
          region,
          name: input.name,
          template: template.id,
          nodeCount: input.node_count,
          version,
        });
        const runId = await startRun(tx, {
          orgId: org.id,
          kind: 'create-cluster',
          region,
          clusterId: cluster.id,
          input: { template: template.id, node_count: input.node_count, version, requested_by: requester(ctx) },
        });
        return { status: 202, body: { cluster: toClusterView(cluster), run_id: runId } };
      });
    }),

  delete: orgProcedure
    .meta({
      resource: { param: 'id', prefix: 'cls' },
      successStatus: 202,
      openapi: {
        method: 'DELETE',
        path: '/compute/clusters/{id}',
        summary: 'Delete a cluster (202: a delete-cluster run releases its servers; Location is the run)',
        tags: ['arc'],
      },
    })
    .input(z.object({ id: z.string() }))
    .output(Accepted)
    .mutation(async ({ ctx, input }) => {
      const org = requireOrg(ctx);
      return acceptRun(ctx, { op: 'clusters.delete', id: input.id }, async (tx) => {
        const cluster = await markDeleting(tx, org.id, input.id);
        if (!cluster) {
          const now = await tx.cluster.findFirst({
            where: { id: input.id, orgId: org.id, status: { not: 'deleted' } },
          });
          if (!now) throw new AppError('not_found', `no cluster ${input.id}`);
          throw new AppError(
            'conflict',
            now.status === 'deleting'
              ? `${input.id} is being deleted already`
              : `${input.id} is ${now.status}: delete it once it is ready or failed`,
            { extra: { status: now.status } },
          );
        }
        const runId = await startRun(tx, {
          orgId: org.id,
          kind: 'delete-cluster',
          region: cluster.region,
          clusterId: cluster.id,
          input: { requested_by: requester(ctx) },
        });
        return { status: 202, body: { cluster: toClusterView(cluster), run_id: runId } };
      });
    }),

  kubeconfig: orgProcedure
    .meta({
      resource: { param: 'id', prefix: 'cls' },
      openapi: {
        method: 'GET',
        path: '/compute/clusters/{id}/kubeconfig',
        summary: 'Credentials for a ready cluster (kubeconfig YAML)',
        tags: ['arc'],
      },
    })
    .input(z.object({ id: z.string() }))
    .output(z.object({ cluster_id: z.string(), kubeconfig: z.string() }))
    .query(async ({ ctx, input }) => {
      const org = requireOrg(ctx);
      const cluster = await read(ctx, (db) => getCluster(db, org.id, input.id));
      if (!cluster) throw new AppError('not_found', `no cluster ${input.id}`);
      if (cluster.status !== 'ready') {
        throw new AppError('conflict', `${cluster.id} is ${cluster.status}: a kubeconfig exists once it is ready`, {
          extra: { status: cluster.status },
        });
      }
      ctx.req.setHeader('Cache-Control', 'no-store');
      return { cluster_id: cluster.id, kubeconfig: kubeconfig(cluster, authSecret()) };
    }),
});
