// Arc notifications: list (with the unread count), mark one read, mark all read.
import { z } from 'zod';
import {
  markAllNotificationsRead,
  markNotificationRead,
  notificationsFor,
  type Reader,
} from '../../notifications/notifications';
import { notificationView } from '../../notifications/repository';
import type { Context } from '../context';
import { pageInput } from '../schemas';
import { memberProcedure, router, viewerProcedure } from '../trpc';

function reader(ctx: Context & { org: { id: string } }): Reader {
  return { orgId: ctx.org.id, userId: ctx.identity.kind === 'session' ? ctx.identity.userId : null };
}

export const notificationsRouter = router({
  list: viewerProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'GET', path: '/notifications', summary: 'Your notifications', tags: ['arc'] },
    })
    .input(
      z.object({
        unread: z.enum(['true', 'false']).optional(),
        ...pageInput(128),
      }),
    )
    .output(z.object({ data: z.array(notificationView), next_cursor: z.string().nullable(), unread_count: z.number() }))
    .query(({ ctx, input }) =>
      notificationsFor(ctx, reader(ctx), {
        unreadOnly: input.unread === 'true',
        limit: input.limit,
        cursor: input.cursor,
      }),
    ),

  markRead: memberProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'PATCH',
        path: '/notifications/{id}/read',
        summary: 'Mark a notification read',
        tags: ['arc'],
      },
    })
    .input(z.object({ id: z.string() }))
    .output(notificationView)
    .mutation(({ ctx, input }) => markNotificationRead(ctx, reader(ctx), input.id)),

  markAllRead: memberProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'POST',
        path: '/notifications/read-all',
        summary: 'Mark every notification read',
        tags: ['arc'],
      },
    })
    .input(z.object({}).optional())
    .output(z.object({ updated: z.number(), unread_count: z.number() }))
    .mutation(({ ctx }) => markAllNotificationsRead(ctx, reader(ctx))),
});
