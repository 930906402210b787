// "Where does this request go, and why?": the resolution cascade's answer for the caller's own
// request (also the anchor of the cross-entry-point contract test).
import { z } from 'zod';
import type { Context, RegionContext } from '../context';
import { regionResolutionView, toRegionResolutionView } from '../../region/resolution-view';
import { publicProcedure, router } from '../trpc';

const explain = (ctx: Context & { region: RegionContext }) =>
  toRegionResolutionView(ctx.region, ctx.gatewayRegion, ctx.requestId);

export const routingRouter = router({
  resolve: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/routing/resolve',
        protect: false,
        summary: 'How this read resolves its region',
        tags: ['routing'],
      },
    })
    .input(z.object({ region: z.string().optional().describe('Same as X-Region; read by the cascade') }))
    .output(regionResolutionView)
    .query(({ ctx }) => explain(ctx)),

  resolveWrite: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/routing/resolve',
        protect: false,
        summary: 'How a mutation resolves its region (changes nothing)',
        tags: ['routing'],
      },
    })
    .input(z.object({ region: z.string().optional().describe('The body region, read by the cascade') }))
    .output(regionResolutionView)
    .mutation(({ ctx }) => explain(ctx)),
});
