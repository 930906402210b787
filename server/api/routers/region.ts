import { z } from 'zod';
import { regionRegistry } from '../../region/registry';
import { publicProcedure, router } from '../trpc';

export const regionRouter = router({
  /** The registry as this gateway holds it (in memory). */
  list: publicProcedure
    .meta({ region: 'gateway' })
    .input(z.void())
    .query(async () => (await regionRegistry()).all()),
});
