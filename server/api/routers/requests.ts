// GET /v1/requests/{request_id}: why one of the caller's organization's requests went where it
// went. Another organization's request is a 404, like an unknown one. The work is in
// server/routing/explain.ts; the Atlas twin (any request) is routers/atlas/requests.ts.
import { z } from 'zod';
import { REASON_CODES } from '../../routing/decision';
import { explainRequest } from '../../routing/explain';
import { orgProcedure, router } from '../trpc';

const reasonCode = z.enum(REASON_CODES);

export const requestIdInput = z.object({
  request_id: z.string().max(100).describe('A request ID from X-Request-Id: req_{region}-{unix ms}-{12 hex}'),
});

export const Explanation = z.object({
  request_id: z.string(),
  at: z.string().describe('When the request arrived'),
  trace_id: z.string().nullable(),
  door: z.enum(['rest', 'trpc', 'action']).describe('How it came in: the REST API, tRPC, or a server action'),
  method: z.string(),
  route: z.string(),
  identity: z
    .object({
      kind: z.string().describe('session, api_key, anonymous, …'),
      user_id: z.string().nullable(),
      key_id: z.string().nullable().describe('An API key by its ID (key_…)'),
      key_prefix: z.string().nullable().describe('An API key by its public prefix (never the secret)'),
      operator: z.boolean(),
    })
    .describe('Who called (never a secret)'),
  org_id: z.string().nullable(),
  gateway: z.object({ region: z.string(), id: z.string().describe('The gateway process that answered') }),
  route_class: z.string().nullable().describe('read, write or list: which of the policy’s limits applied'),
  policy: z
    .object({ version: z.string().describe('epoch.sequence'), scope: z.string().describe('default, or the org') })
    .nullable(),
  hint_regions: z.array(z.string()).describe('Execution point 1: the regions the unauthenticated hints left'),
  cascade: z.array(
    z.object({
      step: z.string(),
      value: z.string().nullable(),
      outcome: z.enum(['matched', 'absent', 'invalid', 'skipped']),
    }),
  ),
  region: z.string().nullable(),
  source: z.string().nullable().describe('The cascade step that matched'),
  candidates: z.array(
    z.object({
      target: z.string().describe('primary | replica:<region>'),
      chosen: z.boolean(),
      dropped: reasonCode.nullable(),
      dropped_reason: z.string().nullable(),
      lag_ms: z.number().nullable(),
      signal_age_ms: z.number().nullable(),
    }),
  ),
  target: z.string().nullable().describe('primary | replica:<region> | fan-out, or null when refused'),
  reason_code: reasonCode,
  reason: z.string().describe('The reason code in a sentence'),
  served_by: z.string().nullable(),
  degraded: z.string().nullable(),
  lag_ms: z.number().nullable().describe('The lag then'),
  signal_age_ms: z.number().nullable().describe('The age of the health signal then'),
  status: z.number(),
  error_code: z.string().nullable(),
  latency_ms: z.number(),
  trace: z
    .array(
      z.object({
        request_id: z.string(),
        at: z.string(),
        method: z.string(),
        route: z.string(),
        gateway_region: z.string(),
        status: z.number(),
        reason_code: reasonCode,
        target: z.string().nullable(),
        latency_ms: z.number(),
      }),
    )
    .describe('The other requests of the same trace, oldest first (at most 50)'),
  trace_truncated: z.boolean(),
});

export const requestsRouter = router({
  get: orgProcedure
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
    .output(Explanation)
    .query(({ ctx, input }) =>
      explainRequest(ctx, input.request_id, { operator: false, orgId: ctx.org.id }, ctx.principal),
    ),
});
