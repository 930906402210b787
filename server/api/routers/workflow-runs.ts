// GET /v1/workflow-runs/{id}: a run and its steps.
import { z } from 'zod';
import { workflowRunView } from '../../workflows/repository';
import { runOf } from '../../workflows/runs';
import { router, viewerProcedure } from '../trpc';

export const workflowRunsRouter = router({
  get: viewerProcedure
    .meta({
      resource: { param: 'id', prefix: 'run' },
      openapi: { method: 'GET', path: '/workflow-runs/{id}', summary: 'A workflow run and its steps', tags: ['arc'] },
    })
    .input(z.object({ id: z.string() }))
    .output(workflowRunView)
    .query(({ ctx, input }) => runOf(ctx, ctx.org.id, input.id)),
});
