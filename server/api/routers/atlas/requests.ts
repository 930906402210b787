// GET /v1/atlas/requests/{request_id}: why any request of the last 24 hours went where it went
// (the Atlas "Explain a request" page). The work is in server/routing/explain.ts.
import { explainRequest } from '../../../routing/explain';
import { explanationView } from '../../../routing/explanation';
import { operatorProcedure, router } from '../../trpc';
import { requestIdInput } from '../requests';

export const atlasRequestsRouter = router({
  get: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/requests/{request_id}',
        summary:
          'Why a request went where it went: door, identity, cascade, policy version, candidates and why each was dropped, target, served-by, lag then, outcome, and its trace (kept 24 hours). 400 not a request ID; 404 unknown or expired.',
        tags: ['atlas'],
      },
    })
    .input(requestIdInput)
    .output(explanationView)
    .query(({ ctx, input }) => explainRequest(ctx, input.request_id, { operator: true, orgId: null }, ctx.principal)),
});
