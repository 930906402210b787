// The public face of the region registry (the landing page, find-your-workspace): where each
// region is and whether it is up. Infrastructure detail (provider, which region holds the
// primary) is Atlas's, behind operatorProcedure.
import { z } from 'zod';
import { regionRegistry } from '../../region/registry';
import { publicProcedure, router } from '../trpc';

const PublicRegion = z.object({
  code: z.string(),
  label: z.string(),
  country: z.string(),
  timezone: z.string(),
  status: z.enum(['active', 'draining', 'down']),
  baseUrl: z.string(),
});

export const regionRouter = router({
  list: publicProcedure
    .meta({ region: 'gateway' })
    .input(z.void())
    .output(z.array(PublicRegion))
    .query(async () =>
      (await regionRegistry()).all().map((r) => ({
        code: r.code,
        label: r.label,
        country: r.country,
        timezone: r.timezone,
        status: r.status,
        baseUrl: r.baseUrl,
      })),
    ),
});
