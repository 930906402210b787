// GET /v1/me: who is calling, in which organization, with which regions; the person's settings and
// their browser sessions (docs/flows/sessions.md).
import { z } from 'zod';
import { endOwnSession, liveSessions, sessionView } from '../../auth/session-records';
import { signOutEverywhere } from '../../auth/sessions';
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

  sessions: sessionProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/me/sessions',
        summary:
          'Your live browser sessions, newest first (at most 100: a session lasts 12 hours): where and how each was signed in, and which one is this',
        tags: ['arc'],
      },
    })
    .input(z.object({}).optional())
    .output(z.object({ data: z.array(sessionView) }))
    .query(({ ctx }) => liveSessions(ctx.identity.userId, ctx.identity.sessionId)),

  endSession: sessionProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'DELETE',
        path: '/me/sessions/{id}',
        summary:
          'End one of your other sessions: its cookie is refused on every gateway at once (ended: false when it had ended already). Your own: sign out instead (400)',
        tags: ['arc'],
      },
    })
    .input(z.object({ id: z.string().max(64) }))
    .output(z.object({ ended: z.boolean() }))
    .mutation(({ ctx, input }) => endOwnSession(ctx.identity.userId, ctx.identity.sessionId, input.id, ctx.requestId)),

  signOutEverywhere: sessionProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'POST',
        path: '/me/sessions/sign-out-everywhere',
        summary: 'End every session of yours, this one too, on every gateway at once. Audited (auth.sign_out)',
        tags: ['arc'],
      },
    })
    .input(z.object({}).optional())
    .output(z.object({ ended: z.boolean() }))
    .mutation(({ ctx }) => signOutEverywhere(ctx.identity.userId, ctx.requestId)),

  get: selfProcedure
    .meta({ region: 'gateway', openapi: { method: 'GET', path: '/me', summary: 'The caller', tags: ['arc'] } })
    .input(z.object({}).optional())
    .output(callerView)
    .query(({ ctx }) => describeCaller(ctx, ctx.identity)),
});
