// Atlas: alerts (a replica lagging or unreachable, a region's error rate high, the primary
// unreachable), open ones for the banner every Atlas page shows, or every episode.
import { z } from 'zod';
import { alertListView, listAlerts } from '../../../replication/alert-list';
import { pageInput } from '../../schemas';
import { operatorProcedure, router } from '../../trpc';

export const atlasAlertsRouter = router({
  list: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/alerts',
        summary:
          'Alerts, newest first: open ones by default (`state=all`: every episode); a replica over its lag limit or unreachable for ATLAS_LAG_SAMPLES samples, a high error rate, the primary unreachable',
        tags: ['atlas'],
      },
    })
    .input(
      z
        .object({
          state: z.enum(['open', 'all']).default('open'),
          region: z
            .string()
            .regex(/^[a-z]{3}[1-9][0-9]*$/)
            .optional(),
          ...pageInput(200),
        })
        .optional(),
    )
    .output(alertListView)
    .query(({ ctx, input }) =>
      listAlerts(ctx, {
        state: input?.state ?? 'open',
        region: input?.region,
        limit: input?.limit ?? 50,
        cursor: input?.cursor,
      }),
    ),
});
