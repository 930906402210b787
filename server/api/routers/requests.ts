// GET /v1/requests/{request_id}: why one of the caller's organization's requests went where it
// went (another organization's is a 404). The Atlas twin (any request) is atlas/requests.ts.
import { z } from 'zod';
import { explainRequest } from '../../routing/explain';
import { explanationView } from '../../routing/explanation';
import { router, viewerProcedure } from '../trpc';

export const requestIdInput = z.object({
  request_id: z.string().max(100).describe('A request ID from X-Request-Id: req_{region}-{unix ms}-{12 hex}'),
});

export const requestsRouter = router({
  get: viewerProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/requests/{request_id}',
        summary:
          'Why one of your organization’s requests went where it went (kept 24 hours). 400 not a request ID; 404 unknown, expired or not yours.',
        tags: ['arc'],
      },
    })
    .input(requestIdInput)
    .output(explanationView)
    .query(({ ctx, input }) =>
      explainRequest(ctx, input.request_id, { operator: false, orgId: ctx.org.id }, ctx.principal),
    ),
});
