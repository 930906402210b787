// GET /v1/organization: the caller's organization (regions, default region, members).
import { z } from 'zod';
import { memberOrganizationView, organizationOf } from '../../organizations/organization';
import { orgProcedure, router } from '../trpc';

export const organizationRouter = router({
  get: orgProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'GET', path: '/organization', summary: 'Your organization', tags: ['arc'] },
    })
    .input(z.object({}).optional())
    .output(
      memberOrganizationView.extend({
        role: z.enum(['member', 'admin']).nullable().describe('yours; null for an API key'),
      }),
    )
    .query(async ({ ctx }) => ({
      ...(await organizationOf(ctx, ctx.org.id)),
      role: ctx.identity.kind === 'session' ? ctx.identity.orgRole : null,
    })),
});
