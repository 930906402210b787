// GET /v1/me: who is calling, in which organization, with which regions.
import { z } from 'zod';
import { callerView, describeCaller } from '../../users/me';
import { settingsView, THEMES, updateSettings } from '../../users/settings';
import { router, selfProcedure, sessionProcedure } from '../trpc';

export const meRouter = router({
  updateSettings: sessionProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'PATCH', path: '/me/settings', summary: 'Your theme and default region', tags: ['arc'] },
    })
    .input(
      z
        .object({
          theme: z.enum(THEMES).optional(),
          default_region: z.string().nullable().optional(),
        })
        .refine((v) => v.theme !== undefined || v.default_region !== undefined, 'send theme and/or default_region'),
    )
    .output(settingsView)
    .mutation(({ ctx, input }) =>
      updateSettings(ctx, { userId: ctx.identity.userId, allowedRegions: ctx.identity.org?.allowedRegions }, input),
    ),

  get: selfProcedure
    .meta({ region: 'gateway', openapi: { method: 'GET', path: '/me', summary: 'The caller', tags: ['arc'] } })
    .input(z.object({}).optional())
    .output(callerView)
    .query(({ ctx }) => describeCaller(ctx, ctx.identity)),
});
