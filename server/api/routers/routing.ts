// "Where does this request go, and why?": the resolution cascade's answer for the caller's
// own request. Useful to users and the anchor of the cross-entry-point contract test.
import { z } from 'zod';
import type { Context, RegionContext } from '../context';
import { publicProcedure, router } from '../trpc';

const Resolution = z.object({
  region: z.string().describe('The resolved region, or the gateway’s own region for a fan-out'),
  source: z
    .string()
    .describe(
      'Which cascade step decided: subdomain, header, query, body, key, project-session, session, resource, fan-out, gateway',
    ),
  fan_out: z.array(z.string()).nullable().describe('Every region a fan-out read spans'),
  gateway: z.string(),
  request_id: z.string(),
});

const explain = (ctx: Context & { region: RegionContext }) => ({
  region: ctx.region.region,
  source: ctx.region.source,
  fan_out: ctx.region.fanOut ?? null,
  gateway: ctx.gatewayRegion,
  request_id: ctx.requestId,
});

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
    .output(Resolution)
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
    .output(Resolution)
    .mutation(({ ctx }) => explain(ctx)),
});
