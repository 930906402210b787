// GET /v1/compute/templates: the cluster templates, with how many nodes each of your regions
// can take right now.
import { z } from 'zod';
import { capacity } from '../../clusters/capacity';
import { DEFAULT_VERSION, TEMPLATES } from '../../clusters/templates';
import { read } from '../../db/access';
import { requireOrg } from '../context';
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
    .query(async ({ ctx }) => {
      const org = requireOrg(ctx);
      const free = await read(ctx, (db) => capacity(db, org.allowedRegions));
      return {
        data: TEMPLATES.map((t) => ({
          id: t.id,
          label: t.label,
          description: t.description,
          min_nodes: t.minNodes,
          max_nodes: t.maxNodes,
          gpu: t.gpu,
          versions: t.versions,
          default_version: t.versions.includes(DEFAULT_VERSION) ? DEFAULT_VERSION : t.versions[0]!,
          capacity: Object.fromEntries(org.allowedRegions.map((r) => [r, free.get(r)![t.gpu ? 'gpu' : 'cpu']])),
        })),
      };
    }),
});
