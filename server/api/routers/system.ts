// Service procedures: answer for the gateway itself.
import { z } from 'zod';
import { publicProcedure, router } from '../trpc';

export const systemRouter = router({
  ping: publicProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/ping',
        protect: false,
        summary: 'Liveness of the API, through the full request chain',
        tags: ['service'],
      },
    })
    .input(z.void())
    .output(z.object({ ok: z.literal(true), region: z.string() }))
    .query(({ ctx }) => ({ ok: true as const, region: ctx.gatewayRegion })),
});
