// Atlas: the database cluster as the HA manager sees it, and a planned switchover (audited).
import { z } from 'zod';
import { databaseCluster, databaseClusterView } from '../../../database-cluster/cluster';
import { SWITCHOVER_AUDIT_ACTION, switchover } from '../../../database-cluster/switchover';
import { operatorProcedure, router } from '../../trpc';

export const atlasDatabaseRouter = router({
  get: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/database',
        summary:
          'The database cluster: its members as the HA manager sees them (role, state, timeline, lag), its promotions, and this gateway’s primary',
        tags: ['atlas'],
      },
    })
    .input(z.object({}).optional())
    .output(databaseClusterView)
    .query(() => databaseCluster()),

  switchover: operatorProcedure
    .meta({
      region: 'gateway',
      audit: SWITCHOVER_AUDIT_ACTION,
      openapi: {
        method: 'POST',
        path: '/atlas/database/switchover',
        summary:
          'Hand the primary to the synchronous standby (a planned switchover): writes pause for a few seconds and answer 503 + Retry-After meanwhile; audited',
        tags: ['atlas'],
      },
    })
    .input(
      z.object({
        candidate: z
          .string()
          .max(100)
          .regex(/^[A-Za-z0-9_.-]+$/)
          .optional(),
        reason: z.string().trim().min(1, 'say why').max(500),
      }),
    )
    .output(z.object({ from: z.string(), to: z.string(), timeline: z.number().nullable(), took_ms: z.number() }))
    .mutation(({ ctx, input }) => switchover(ctx, ctx.identity.userId, input)),
});
