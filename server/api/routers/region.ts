// The public face of the region registry: where each region is and whether it is up. Infrastructure
// detail (provider, where the primary is) is Atlas's, behind operatorProcedure.
import { z } from 'zod';
import { regionRegistry } from '../../region/registry';
import { publicRegionView, toPublicRegion } from '../../region/repository';
import { publicProcedure, router } from '../trpc';

export const regionRouter = router({
  list: publicProcedure
    .meta({ region: 'gateway' })
    .input(z.void())
    .output(z.array(publicRegionView))
    .query(async () => (await regionRegistry()).all().map(toPublicRegion)),
});
