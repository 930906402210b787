// /v1/organization: the caller's organization (regions, default region, members), and its
// admin's offboarding of it (and the cancel, during the grace period).
import { z } from 'zod';
import { ORG_ROLES } from '../../members/roles';
import { cancelOffboarding, confirmSchema, offboardingView, startOffboarding } from '../../organizations/offboarding';
import { memberOrganizationView, organizationOf } from '../../organizations/organization';
import { orgAdminProcedure, router, viewerProcedure } from '../trpc';
import { ssoRouter } from './sso';

export const organizationRouter = router({
  get: viewerProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'GET', path: '/organization', summary: 'Your organization', tags: ['arc'] },
    })
    .input(z.object({}).optional())
    .output(
      memberOrganizationView.extend({
        role: z.enum(ORG_ROLES).nullable().describe('yours; null for an API key'),
      }),
    )
    .query(async ({ ctx }) => ({
      ...(await organizationOf(ctx, ctx.org.id)),
      role: ctx.identity.kind === 'session' ? ctx.identity.orgRole : null,
    })),

  offboard: orgAdminProcedure
    .meta({
      region: 'gateway',
      scope: 'admin',
      successStatus: 202,
      openapi: {
        method: 'POST',
        path: '/organization/offboard',
        summary:
          'Delete your organization (admins, signed in; 202), confirmed by typing its slug: read-only at once, its ' +
          'clusters deleted, its data purged after the grace period (7 days; cancel until then). Audited.',
        tags: ['arc'],
      },
    })
    .input(z.object({ confirm: confirmSchema }))
    .output(offboardingView)
    .mutation(async ({ ctx, input }) => {
      const out = await startOffboarding(
        ctx,
        { userId: ctx.identity.userId, operator: false },
        ctx.org.id,
        input.confirm,
      );
      ctx.response.status = 202;
      return out;
    }),

  cancelOffboard: orgAdminProcedure
    .meta({
      region: 'gateway',
      scope: 'admin',
      whileOffboarding: true,
      openapi: {
        method: 'POST',
        path: '/organization/cancel-offboard',
        summary:
          'Cancel your organization’s offboarding during its grace period (admins, signed in): writable again; ' +
          'deleted clusters stay deleted. Audited.',
        tags: ['arc'],
      },
    })
    .input(z.object({}).optional())
    .output(offboardingView)
    .mutation(({ ctx }) => cancelOffboarding(ctx, { userId: ctx.identity.userId, operator: false }, ctx.org.id)),
  sso: ssoRouter,
});
