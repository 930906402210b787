// GET /v1/organization: the caller's organization (regions, default region, members).
import { z } from 'zod';
import { organizationOf } from '../../organizations/organization';
import { orgProcedure, router } from '../trpc';

export const organizationRouter = router({
  get: orgProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'GET', path: '/organization', summary: 'Your organization', tags: ['arc'] },
    })
    .input(z.object({}).optional())
    .output(
      z.object({
        id: z.string(),
        slug: z.string(),
        name: z.string(),
        default_region: z.string().nullable(),
        allowed_regions: z.array(z.object({ code: z.string(), label: z.string(), country: z.string() })),
        members: z.array(
          z.object({
            user_id: z.string(),
            email: z.string(),
            name: z.string(),
            role: z.enum(['member', 'admin']),
            joined_at: z.string(),
          }),
        ),
        role: z.enum(['member', 'admin']).nullable().describe('yours; null for an API key'),
      }),
    )
    .query(async ({ ctx }) => ({
      ...(await organizationOf(ctx, ctx.org.id)),
      role: ctx.identity.kind === 'session' ? ctx.identity.orgRole : null,
    })),
});
