// GET /v1/compute/templates: the cluster templates, with how many nodes each of your regions
// can take right now.
import { z } from 'zod';
import { templateCapacityView, templatesWithCapacity } from '../../clusters/capacity';
import { router, viewerProcedure } from '../trpc';

export const templatesRouter = router({
  list: viewerProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/compute/templates',
        summary: 'Cluster templates and the free nodes for each in your regions',
        tags: ['arc'],
      },
    })
    .input(z.object({}).optional())
    .output(z.object({ data: z.array(templateCapacityView) }))
    .query(({ ctx }) => templatesWithCapacity(ctx, ctx.org.allowedRegions)),
});
