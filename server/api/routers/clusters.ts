// Arc clusters: list, get, create, delete, kubeconfig credentials, and the create form's defaults.
// The work is in server/clusters (docs/flows/cluster-create.md).
import { z } from 'zod';
import { LISTED_CLUSTER_STATUSES } from '~/lib/cluster-status';
import { actorOf } from '../../audit/actor';
import { clusterCreateDefaults, createCluster } from '../../clusters/create';
import { deleteCluster } from '../../clusters/delete';
import {
  credentialView,
  issuedKubeconfigView,
  issueKubeconfig,
  listKubeconfigCredentials,
  revokeKubeconfigCredential,
} from '../../clusters/kubeconfig';
import { clusterWithLatestRun, listClustersInRegions } from '../../clusters/list';
import { acceptedClusterView, clusterView } from '../../clusters/repository';
import { DEFAULT_TEMPLATE_ID, DEFAULT_VERSION, KUBERNETES_VERSIONS, TEMPLATE_IDS } from '../../clusters/templates';
import type { Context } from '../context';
import { pageInput, resourceName } from '../schemas';
import { adminProcedure, memberProcedure, router, viewerProcedure } from '../trpc';

/** 202 Accepted points at the run that does the work (on replays too). */
function located<T extends { run_id: string }>(ctx: Context, accepted: T): T {
  ctx.req.setHeader('Location', `/v1/workflow-runs/${accepted.run_id}`);
  return accepted;
}

const userOf = (ctx: Context) => (ctx.identity.kind === 'session' ? ctx.identity.userId : null);
const keyOf = (ctx: Context) => (ctx.identity.kind === 'api_key' ? ctx.identity.keyPrefix : undefined);

export const clustersRouter = router({
  list: viewerProcedure
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
        status: z.enum(LISTED_CLUSTER_STATUSES).optional(),
        ...pageInput(200),
      }),
    )
    .output(
      z.object({
        data: z.array(clusterView),
        next_cursor: z.string().nullable(),
        regions: z.record(z.string(), z.object({ status: z.enum(['ok', 'error']), latency_ms: z.number() })).optional(),
      }),
    )
    .query(({ ctx, input }) =>
      listClustersInRegions(ctx, ctx.org, {
        regions: ctx.region.source === 'fan-out' ? ctx.region.fanOut : [ctx.region.region],
        fanOut: ctx.region.source === 'fan-out',
        projectId: input.project_id,
        status: input.status,
        limit: input.limit,
        cursor: input.cursor,
      }),
    ),

  get: viewerProcedure
    .meta({
      resource: { param: 'id', prefix: 'cls' },
      openapi: { method: 'GET', path: '/compute/clusters/{id}', summary: 'One cluster', tags: ['arc'] },
    })
    .input(z.object({ id: z.string() }))
    .output(clusterView.extend({ latest_run_id: z.string().nullable() }))
    .query(({ ctx, input }) => clusterWithLatestRun(ctx, ctx.org.id, input.id)),

  defaults: viewerProcedure
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
    .query(({ ctx, input }) =>
      clusterCreateDefaults(
        ctx,
        {
          org: ctx.org,
          sessionProjectId: ctx.identity.kind === 'session' ? ctx.identity.project?.id : null,
          userRegion: ctx.identity.kind === 'session' ? ctx.identity.userRegion : null,
        },
        input?.project_id,
      ),
    ),

  create: memberProcedure
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
        name: resourceName(40, /^[a-z][a-z0-9-]*$/, 'lowercase letters, digits and dashes, starting with a letter'),
        project_id: z
          .string()
          .optional()
          .describe(
            'prj_…; default: the browser session’s project, else the organization’s default project (its first by name)',
          ),
        template: z.enum(TEMPLATE_IDS).optional().describe(`default ${DEFAULT_TEMPLATE_ID}`),
        node_count: z.number().int().min(1).max(100).optional().describe('default: the template’s minimum'),
        version: z.enum(KUBERNETES_VERSIONS).optional().describe(`default ${DEFAULT_VERSION}`),
        region: z.string().optional().describe('Resolved by the cascade; a single-region organization never names one'),
      }),
    )
    .output(acceptedClusterView)
    .mutation(async ({ ctx, input }) =>
      located(
        ctx,
        await createCluster(
          ctx,
          {
            org: ctx.org,
            region: ctx.region.region,
            userId: userOf(ctx),
            keyPrefix: keyOf(ctx),
            sessionProjectId: ctx.identity.kind === 'session' ? ctx.identity.project?.id : null,
          },
          input,
        ),
      ),
    ),

  delete: memberProcedure
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
    .output(acceptedClusterView)
    .mutation(async ({ ctx, input }) =>
      located(ctx, await deleteCluster(ctx, { org: ctx.org, userId: userOf(ctx), keyPrefix: keyOf(ctx) }, input.id)),
    ),

  // Cluster-admin credentials: org admins and admin-scoped keys only.
  kubeconfig: adminProcedure
    .meta({
      resource: { param: 'id', prefix: 'cls' },
      errors: ['conflict'], // a cluster not ready has no credentials to give
      openapi: {
        method: 'GET',
        path: '/compute/clusters/{id}/kubeconfig',
        summary:
          'Credentials for a ready cluster (kubeconfig YAML). Each call issues a credential of its own (listed under …/kubeconfig/credentials, revocable one by one); a cluster keeps at most 10 active, and an 11th revokes the oldest.',
        tags: ['arc'],
      },
    })
    .input(z.object({ id: z.string() }))
    .output(issuedKubeconfigView)
    .query(async ({ ctx, input }) => {
      ctx.req.setHeader('Cache-Control', 'no-store');
      return issueKubeconfig(ctx, actorOf(ctx.identity, ctx.org.id), input.id, {
        createdBy: ctx.principal ?? null,
        rotate: false,
      });
    }),

  rotateKubeconfig: adminProcedure
    .meta({
      resource: { param: 'id', prefix: 'cls' },
      openapi: {
        method: 'POST',
        path: '/compute/clusters/{id}/kubeconfig/rotate',
        summary:
          'A new kubeconfig for a ready cluster, and every other credential of the cluster revoked in the same change (revoked says how many)',
        tags: ['arc'],
      },
    })
    .input(z.object({ id: z.string() }))
    .output(issuedKubeconfigView)
    .mutation(async ({ ctx, input }) => {
      ctx.req.setHeader('Cache-Control', 'no-store');
      return issueKubeconfig(ctx, actorOf(ctx.identity, ctx.org.id), input.id, {
        createdBy: ctx.principal ?? null,
        rotate: true,
      });
    }),

  kubeconfigCredentials: adminProcedure
    .meta({
      resource: { param: 'id', prefix: 'cls' },
      openapi: {
        method: 'GET',
        path: '/compute/clusters/{id}/kubeconfig/credentials',
        summary: 'The credentials issued for a cluster’s kubeconfigs, newest first (never a secret)',
        tags: ['arc'],
      },
    })
    .input(z.object({ id: z.string() }))
    .output(z.object({ data: z.array(credentialView) }))
    .query(({ ctx, input }) => listKubeconfigCredentials(ctx, ctx.org.id, input.id)),

  revokeKubeconfigCredential: adminProcedure
    .meta({
      resource: { param: 'id', prefix: 'cls' },
      openapi: {
        method: 'DELETE',
        path: '/compute/clusters/{id}/kubeconfig/credentials/{credential_id}',
        summary: 'Revoke one kubeconfig credential: its token stops working at once (again: no change)',
        tags: ['arc'],
      },
    })
    .input(z.object({ id: z.string(), credential_id: z.string().max(100) }))
    .output(credentialView)
    .mutation(({ ctx, input }) =>
      revokeKubeconfigCredential(ctx, actorOf(ctx.identity, ctx.org.id), input.id, input.credential_id),
    ),
});
