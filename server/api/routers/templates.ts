// GET /v1/compute/templates: the cluster templates, with how many nodes each of your regions
// can take right now.
import { z } from 'zod';
import { templatesWithCapacity } from '../../clusters/capacity';
import { orgProcedure, router } from '../trpc';

export const templatesRouter = router({
  list: orgProcedure
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
    .output(
      z.object({
        data: z.array(
          z.object({
            id: z.string(),
            label: z.string(),
            description: z.string(),
            min_nodes: z.number(),
            max_nodes: z.number(),
            gpu: z.boolean(),
            versions: z.array(z.string()),
            default_version: z.string(),
            capacity: z.record(z.string(), z.number()).describe('free nodes per region'),
          }),
        ),
      }),
    )
    .query(({ ctx }) => templatesWithCapacity(ctx, ctx.org.allowedRegions)),
});
