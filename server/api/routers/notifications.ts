// Arc notifications: list (with the unread count), mark one read, mark all read.
import { z } from 'zod';
import { read, write } from '../../db/access';
import { AppError } from '../../errors';
import { listNotifications, markAllRead, markRead } from '../../notifications/repository';
import { requireOrg, type Context } from '../context';
import { orgProcedure, router } from '../trpc';

const Notification = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  resource_id: z.string().nullable(),
  read: z.boolean(),
  read_at: z.string().nullable(),
  created_at: z.string(),
});

function who(ctx: Context) {
  return { orgId: requireOrg(ctx).id, userId: ctx.identity.kind === 'session' ? ctx.identity.userId : null };
}

export const notificationsRouter = router({
  list: orgProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'GET', path: '/notifications', summary: 'Your notifications', tags: ['arc'] },
    })
    .input(
      z.object({
        unread: z.enum(['true', 'false']).optional(),
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.string().max(64).optional(),
      }),
    )
    .output(z.object({ data: z.array(Notification), next_cursor: z.string().nullable(), unread_count: z.number() }))
    .query(({ ctx, input }) => {
      const { orgId, userId } = who(ctx);
      return read(ctx, (db) =>
        listNotifications(db, orgId, userId, {
          unreadOnly: input.unread === 'true',
          limit: input.limit,
          cursor: input.cursor,
        }),
      );
    }),

  markRead: orgProcedure
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
    .output(Notification)
    .mutation(async ({ ctx, input }) => {
      const { orgId, userId } = who(ctx);
      const n = await write(ctx, (tx) => markRead(tx, orgId, userId, input.id));
      if (!n) throw new AppError('not_found', `no notification ${input.id}`);
      return n;
    }),

  markAllRead: orgProcedure
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
    .mutation(async ({ ctx }) => {
      const { orgId, userId } = who(ctx);
      const updated = await write(ctx, (tx) => markAllRead(tx, orgId, userId));
      return { updated, unread_count: 0 };
    }),
});
