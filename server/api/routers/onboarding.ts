// Public doors of the workspace lifecycle, at a region's address only: self-serve sign-up (when
// MERIDIAN_SIGNUP=on) and a first admin's "set your password" link. The work is in server/organizations.
import { addressBucket, clientAddress } from '../../net/client-address';
import { redeemSetupLink, setPasswordInput } from '../../organizations/first-admin';
import { signUp, signUpInput, signUpView } from '../../organizations/signup';
import { z } from 'zod';
import { publicProcedure, router } from '../trpc';

export const onboardingRouter = router({
  signUp: publicProcedure
    .meta({
      region: 'gateway',
      successStatus: 201,
      errors: ['wrong_region', 'slug_taken', 'directory_unavailable'],
      openapi: {
        method: 'POST',
        path: '/signup',
        protect: false,
        summary:
          'Sign up (201): a new organization homed at this region with you as its admin. Only at a region’s address ' +
          '(421 at the global address) and only when the deployment opened sign-up (404 otherwise); 409 slug_taken; ' +
          '409 conflict for an email that has an account; 5 an hour per client address (429).',
        tags: ['onboarding'],
      },
    })
    .input(signUpInput)
    .output(signUpView)
    .mutation(async ({ ctx, input }) => {
      const out = await signUp(ctx, ctx.gatewayRegion, addressBucket(clientAddress(ctx.req.headers)), input);
      ctx.response.status = 201;
      return out;
    }),

  setPassword: publicProcedure
    .meta({
      region: 'gateway',
      errors: ['wrong_region'],
      openapi: {
        method: 'POST',
        path: '/password-setup',
        protect: false,
        summary:
          'Set a first admin’s password with the one-time token of their link (one use, 7 days). Only at the ' +
          'workspace’s region (421 elsewhere, naming it); 404 for a used, expired or unknown token; 10 tries per 15 ' +
          'minutes per client address (429).',
        tags: ['onboarding'],
      },
    })
    .input(setPasswordInput)
    .output(z.object({ email: z.string(), workspace: z.string(), sign_in_url: z.string() }))
    .mutation(({ ctx, input }) =>
      redeemSetupLink(ctx, ctx.gatewayRegion, addressBucket(clientAddress(ctx.req.headers)), input),
    ),
});
