// A cluster's API server asks whether a bearer token is one of its kubeconfig credentials (a
// TokenReview in and out): no Meridian caller, the 256-bit secret alone authenticates (docs/api.md).
import { z } from 'zod';
import { reviewKubeconfigToken, tokenReviewStatusView } from '../../clusters/token-review';
import { publicProcedure, router } from '../trpc';

const API_VERSION = 'authentication.k8s.io/v1';

export const kubernetesRouter = router({
  tokenReview: publicProcedure
    .meta({
      region: 'gateway',
      authenticate: false,
      openapi: {
        method: 'POST',
        path: '/compute/kubernetes/token-review',
        protect: false,
        summary:
          'Kubernetes webhook token authentication for a cluster’s API server: authenticated only for an active kubeconfig credential of a cluster named in spec.audiences (its ID or endpoint)',
        tags: ['kubernetes'],
      },
    })
    .input(
      z.object({
        apiVersion: z.string().max(100).optional(),
        kind: z.literal('TokenReview').optional(),
        spec: z.object({
          token: z.string().max(512),
          audiences: z.array(z.string().max(300)).max(16).optional(),
        }),
      }),
    )
    .output(
      z.object({
        apiVersion: z.string(),
        kind: z.literal('TokenReview'),
        status: tokenReviewStatusView,
      }),
    )
    .mutation(async ({ input }) => ({
      apiVersion: API_VERSION,
      kind: 'TokenReview' as const,
      status: await reviewKubeconfigToken(input.spec.token, input.spec.audiences ?? []),
    })),
});
