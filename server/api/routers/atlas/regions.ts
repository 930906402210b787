// Atlas: the region registry as operators see it.
import { z } from 'zod';
import { regionByCode, regionRegistry } from '../../../region/registry';
import { operatorProcedure, router } from '../../trpc';

const Region = z.object({
  code: z.string(),
  label: z.string(),
  country: z.string(),
  timezone: z.string(),
  provider: z.string(),
  status: z.enum(['active', 'draining', 'down']),
  baseUrl: z.string(),
  isPrimary: z.boolean(),
});

export const atlasRegionsRouter = router({
  list: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'GET', path: '/atlas/regions', summary: 'Every region in the registry', tags: ['atlas'] },
    })
    .input(z.object({}).optional())
    .output(z.object({ data: z.array(Region), next_cursor: z.null() }))
    .query(async () => ({ data: (await regionRegistry()).all(), next_cursor: null })),

  get: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'GET', path: '/atlas/regions/{code}', summary: 'One region', tags: ['atlas'] },
    })
    .input(z.object({ code: z.string() }))
    .output(Region)
    .query(({ input }) => regionByCode(input.code)),
});
