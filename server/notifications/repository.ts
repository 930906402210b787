// Notifications of one user within one organization.
import { z } from 'zod';
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { encodeTimeCursor, type TimeCursor } from '../db/cursor';
import { newId } from '../ids';
import type { NotificationRow } from './notifications.sql';

/** A notification as the API shows it. */
export const notificationView = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  resource_id: z.string().nullable(),
  read: z.boolean(),
  read_at: z.string().nullable(),
  created_at: z.string(),
});
export type NotificationView = z.infer<typeof notificationView>;

export const view = (n: NotificationRow): NotificationView => ({
  id: n.id,
  kind: n.kind,
  title: n.title,
  body: n.body,
  resource_id: n.resourceId,
  read: n.read,
  read_at: n.readAt?.toISOString() ?? null,
  created_at: n.createdAt.toISOString(),
});

/** A user sees their own notifications and the organization-wide ones (no user). */
const scope = (orgId: string, userId: string | null) => ({
  orgId,
  OR: [{ userId: null }, ...(userId ? [{ userId }] : [])],
});

export async function listNotifications(
  db: Db,
  orgId: string,
  userId: string | null,
  opts: { unreadOnly: boolean; limit: number; after?: TimeCursor },
) {
  const a = opts.after;
  const rows = await db.notification.findMany({
    where: {
      ...scope(orgId, userId),
      ...(opts.unreadOnly ? { read: false } : {}),
      // After the cursor in (created_at, id) order: IDs are random, so never by the ID alone.
      ...(a ? { AND: [{ OR: [{ createdAt: { lt: a.at } }, { createdAt: a.at, id: { lt: a.id } }] }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: opts.limit + 1,
  });
  const unread = await db.notification.count({ where: { ...scope(orgId, userId), read: false } });
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  return {
    data: page.map(view),
    next_cursor: rows.length > opts.limit && last ? encodeTimeCursor({ at: last.createdAt, id: last.id }) : null,
    unread_count: unread,
  };
}

export interface NewNotification {
  orgId: string;
  /** null: everyone in the organization sees it. */
  userId: string | null;
  kind: string;
  title: string;
  body: string;
  resourceId?: string;
}

export async function notify(tx: Tx, n: NewNotification): Promise<void> {
  await tx.notification.create({
    data: {
      id: newId('ntf'),
      orgId: n.orgId,
      userId: n.userId,
      kind: n.kind,
      title: n.title,
      body: n.body,
      resourceId: n.resourceId ?? null,
    },
  });
}
