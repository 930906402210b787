// Atlas: replication-lag and traffic history per region, for the charts.
import { z } from 'zod';
import { lagHistory, lagHistoryView } from '../../../replication/lag-history';
import { operatorProcedure, router } from '../../trpc';

export const atlasHistoryRouter = router({
  get: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/lag-history',
        summary: 'Replication lag and traffic per region over a window (null where nothing was measured)',
        tags: ['atlas'],
      },
    })
    .input(
      z.object({
        window: z.enum(['15m', '1h', '24h', '7d']).default('1h'),
        region: z
          .string()
          .regex(/^[a-z]{3}[1-9][0-9]*$/)
          .optional(),
      }),
    )
    .output(lagHistoryView)
    .query(({ ctx, input }) => lagHistory(ctx, input)),
});
