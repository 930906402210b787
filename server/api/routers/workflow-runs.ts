// GET /v1/workflow-runs/{id}: a run and its steps.
import { z } from 'zod';
import { runOf } from '../../workflows/runs';
import { orgProcedure, router } from '../trpc';

const Step = z.object({
  position: z.number(),
  name: z.string(),
  status: z.string(),
  attempts: z.number(),
  error: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export const workflowRunsRouter = router({
  get: orgProcedure
    .meta({
      resource: { param: 'id', prefix: 'run' },
      openapi: { method: 'GET', path: '/workflow-runs/{id}', summary: 'A workflow run and its steps', tags: ['arc'] },
    })
    .input(z.object({ id: z.string() }))
    .output(
      z.object({
        id: z.string(),
        kind: z.string(),
        region: z.string(),
        cluster_id: z.string().nullable(),
        status: z.string(),
        error: z.string().nullable(),
        created_at: z.string(),
        started_at: z.string().nullable(),
        finished_at: z.string().nullable(),
        steps: z.array(Step),
      }),
    )
    .query(({ ctx, input }) => runOf(ctx, ctx.org.id, input.id)),
});
