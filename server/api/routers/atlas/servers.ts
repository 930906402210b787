// Atlas servers: list, one, one of its runs, provisioning one (server/fleet/); a request naming
// a region (subdomain, X-Region, ?region=) sees only that region's servers.
import { z } from 'zod';
import { listServers, scopedRegion, serverFacets, SERVER_STATUSES } from '../../../fleet/inventory';
import { provisionServer, SERVER_PROVISION_AUDIT_ACTION } from '../../../fleet/provisioning';
import { serverDetail } from '../../../fleet/server-detail';
import { serverRun } from '../../../fleet/server-runs';
import { SERVER_SORTS } from '../../../fleet/server-sort';
import {
  provisionAcceptedView,
  serverDetailView,
  serverFacetsView,
  serverListView,
  serverRunView,
} from '../../../fleet/server-views';
import type { Context } from '../../context';
import { pageInput } from '../../schemas';
import { operatorProcedure, router } from '../../trpc';

/** Text that reaches SQL as a parameter: PostgreSQL can't hold a NUL, so control characters are refused here. */
const plainText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'no control characters');
const filterText = plainText(64).pipe(z.string().min(1)).optional();

const scope = (ctx: Context) => scopedRegion(ctx.region);

export const atlasServersRouter = router({
  list: operatorProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/atlas/infrastructure/servers',
        summary:
          'Servers of every region (or of the region the request names), filtered, searched, sorted, by keyset pages',
        tags: ['atlas'],
      },
    })
    .input(
      z.object({
        region: z.string().optional().describe('Only this region (also: the subdomain or X-Region scopes the list)'),
        status: z.enum(SERVER_STATUSES).optional(),
        zone: filterText,
        rack: filterText,
        allocation: z.enum(['allocated', 'free']).optional().describe('Allocated to a cluster now, or free'),
        q: plainText(100).optional().describe('A server ID (srv_…, or its start) or part of a hostname'),
        sort: z.enum(SERVER_SORTS).default('hostname'),
        order: z.enum(['asc', 'desc']).default('asc'),
        ...pageInput(400),
      }),
    )
    .output(serverListView)
    .query(({ ctx, input }) => listServers(ctx, scope(ctx), { ...input, q: input.q || undefined })),

  /** The filter bar's choices (tRPC only: the console's own). */
  facets: operatorProcedure
    .input(z.object({}).optional())
    .output(serverFacetsView)
    .query(({ ctx }) => serverFacets(ctx, scope(ctx))),

  get: operatorProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/atlas/infrastructure/servers/{id}',
        summary: 'One server: placement, hardware, status, allocations, its latest run and its history',
        tags: ['atlas'],
      },
    })
    .input(z.object({ id: z.string().max(100) }))
    .output(serverDetailView)
    .query(({ ctx, input }) => serverDetail(ctx, scope(ctx), input.id)),

  run: operatorProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/atlas/infrastructure/servers/{id}/runs/{run_id}',
        summary: 'One workflow run of a server, with its steps (where a provision’s Location points)',
        tags: ['atlas'],
      },
    })
    .input(z.object({ id: z.string().max(100), run_id: z.string().max(100) }))
    .output(serverRunView)
    .query(({ ctx, input }) => serverRun(ctx, scope(ctx), input.id, input.run_id)),

  provision: operatorProcedure
    .meta({
      resource: { param: 'id', prefix: 'srv' },
      successStatus: 202,
      audit: SERVER_PROVISION_AUDIT_ACTION,
      openapi: {
        method: 'POST',
        path: '/atlas/infrastructure/servers/{id}/provision',
        summary:
          'Provision a free server (202: a provision-server run powers it on, flashes firmware, installs the OS image, burns it in and returns it to the pool; Location is the run). 409 when it is allocated or provisioning already. Audited.',
        tags: ['atlas'],
      },
    })
    .input(z.object({ id: z.string().max(100) }))
    .output(provisionAcceptedView)
    .mutation(async ({ ctx, input }) => {
      const accepted = await provisionServer(ctx, { userId: ctx.identity.userId }, scope(ctx), input.id);
      // 202 Accepted: the run does the work; Location is where operators follow it.
      ctx.response.status = 202;
      ctx.req.setHeader('Location', `/v1/atlas/infrastructure/servers/${accepted.server.id}/runs/${accepted.run_id}`);
      return accepted;
    }),
});
