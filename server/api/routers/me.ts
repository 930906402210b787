// GET /v1/me: who is calling, in which organization, with which regions.
import { z } from 'zod';
import { describeCaller } from '../../users/me';
import { updateSettings } from '../../users/settings';
import { authenticatedProcedure, router, sessionProcedure } from '../trpc';

const Org = z.object({
  id: z.string(),
  slug: z.string(),
  default_region: z.string().nullable(),
  allowed_regions: z.array(z.string()),
});

const Settings = z.object({ theme: z.enum(['system', 'light', 'dark']), default_region: z.string().nullable() });

export const meRouter = router({
  updateSettings: sessionProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'PATCH', path: '/me/settings', summary: 'Your theme and default region', tags: ['arc'] },
    })
    .input(
      z
        .object({
          theme: z.enum(['system', 'light', 'dark']).optional(),
          default_region: z.string().nullable().optional(),
        })
        .refine((v) => v.theme !== undefined || v.default_region !== undefined, 'send theme and/or default_region'),
    )
    .output(Settings)
    .mutation(({ ctx, input }) =>
      updateSettings(ctx, { userId: ctx.identity.userId, allowedRegions: ctx.identity.org?.allowedRegions }, input),
    ),

  get: authenticatedProcedure
    .meta({ region: 'gateway', openapi: { method: 'GET', path: '/me', summary: 'The caller', tags: ['arc'] } })
    .input(z.object({}).optional())
    .output(
      z.object({
        kind: z.enum(['session', 'api_key']),
        user: z.object({ id: z.string(), email: z.string(), platform_operator: z.boolean() }).nullable(),
        api_key: z.object({ id: z.string(), region: z.string() }).nullable(),
        organization: Org.nullable(),
        role: z.enum(['member', 'admin']).nullable(),
        organizations: z.array(Org.extend({ role: z.enum(['member', 'admin']) })),
        settings: Settings.nullable().describe('null for an API key'),
        project: z
          .object({ id: z.string(), name: z.string(), default_region: z.string().nullable() })
          .nullable()
          .describe('the project this session works in (its default region comes first in the cascade)'),
      }),
    )
    .query(({ ctx }) => describeCaller(ctx, ctx.identity)),
});
