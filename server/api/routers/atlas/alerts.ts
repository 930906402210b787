// Atlas: alerts (a replica lagging or unreachable, a region's error rate high, the primary
// unreachable), open ones for the banner every Atlas page shows, or every episode.
import { z } from 'zod';
import { listAlerts } from '../../../replication/alert-list';
import { pageInput } from '../../schemas';
import { operatorProcedure, router } from '../../trpc';

const n = z.number().nullable();
const Alert = z.object({
  id: z.string(),
  kind: z.enum(['replica_lagging', 'replica_down', 'error_rate_high', 'primary_down']),
  region: z.string(),
  state: z.enum(['open', 'closed']),
  durable: z.boolean(),
  started_at: z.string().nullable(),
  opened_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  last_sample_at: z.string().nullable(),
  lag_seconds: n,
  lag_bytes: n,
  peak_lag_seconds: n,
  peak_lag_bytes: n,
  error_rate: n,
});

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
    .output(
      z.object({
        data: z.array(Alert),
        next_cursor: z.string().nullable(),
        limits: z.object({
          lag_seconds: z.number(),
          lag_bytes: z.number(),
          samples: z.number(),
          error_rate: z.number(),
        }),
      }),
    )
    .query(({ ctx, input }) =>
      listAlerts(ctx, {
        state: input?.state ?? 'open',
        region: input?.region,
        limit: input?.limit ?? 50,
        cursor: input?.cursor,
      }),
    ),
});
