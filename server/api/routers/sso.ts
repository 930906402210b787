// /v1/organization/sso: the organization's single sign-on, for its admins (signed in). The work
// and the rules are in server/sso/config.ts; the flow: docs/flows/single-sign-on.md.
import { z } from 'zod';
import { removeSsoConfig, saveSsoConfig, ssoConfigInput, ssoConfigOf, ssoConfigView } from '../../sso/config';
import { orgAdminProcedure, router } from '../trpc';

export const ssoRouter = router({
  get: orgAdminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/organization/sso',
        summary: 'Your organization’s single sign-on (null: none); never the client secret',
        tags: ['arc'],
      },
    })
    .input(z.object({}).optional())
    .output(ssoConfigView.nullable())
    .query(({ ctx }) => ssoConfigOf(ctx, ctx.org.id)),

  update: orgAdminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'PUT',
        path: '/organization/sso',
        summary:
          'Set up or change single sign-on (OIDC); the provider’s discovery must answer. ' +
          '409 conflict when another organization’s SSO already signs in one of the domains',
        tags: ['arc'],
      },
    })
    .input(ssoConfigInput)
    .output(ssoConfigView)
    .mutation(({ ctx, input }) =>
      saveSsoConfig(ctx, { userId: ctx.identity.userId, operator: false }, ctx.org.id, input),
    ),

  remove: orgAdminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'DELETE',
        path: '/organization/sso',
        summary: 'Turn single sign-on off (passwords work again for every member)',
        tags: ['arc'],
      },
    })
    .input(z.object({}).optional())
    .output(z.object({ removed: z.boolean() }))
    .mutation(({ ctx }) => removeSsoConfig(ctx, { userId: ctx.identity.userId, operator: false }, ctx.org.id)),
});
