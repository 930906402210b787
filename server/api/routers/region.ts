import { listRegions } from '../../region/repository';
import { publicProcedure, router } from '../trpc';

export const regionRouter = router({
  list: publicProcedure.query(({ ctx }) => listRegions(ctx.db)),
});
