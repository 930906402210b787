// Atlas: replication-lag and traffic history per region, for the charts.
import { z } from 'zod';
import { lagHistory } from '../../../replication/lag-history';
import { operatorProcedure, router } from '../../trpc';

const n = z.number().nullable();
const Point = z.object({
  t: z.string(),
  replica_up: z.boolean().nullable(),
  lag_seconds: n,
  lag_bytes: n,
  write_lag_seconds: n,
  flush_lag_seconds: n,
  replay_lag_seconds: n,
  read_rate: n,
  write_rate: n,
  error_rate: n,
  read_p95_ms: n,
  write_p95_ms: n,
});

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
    .output(
      z.object({
        window: z.enum(['15m', '1h', '24h', '7d']),
        step_seconds: z.number(),
        from: z.string(),
        to: z.string(),
        limits: z.object({ lag_seconds: z.number(), lag_bytes: z.number() }),
        regions: z.array(z.object({ region: z.string(), points: z.array(Point) })),
      }),
    )
    .query(({ ctx, input }) => lagHistory(ctx, input)),
});
