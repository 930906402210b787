// Notifications of one user within one organization.
import { z } from 'zod';
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { newId } from '../ids';

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

type Row = {
  id: string;
  kind: string;
  title: string;
  body: string;
  resourceId: string | null;
  read: boolean;
  readAt: Date | null;
  createdAt: Date;
};

const view = (n: Row): NotificationView => ({
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
  opts: { unreadOnly: boolean; limit: number; cursor?: string },
) {
  const rows = await db.notification.findMany({
    where: {
      ...scope(orgId, userId),
      ...(opts.unreadOnly ? { read: false } : {}),
      ...(opts.cursor ? { id: { lt: opts.cursor } } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: opts.limit + 1,
  });
  const unread = await db.notification.count({ where: { ...scope(orgId, userId), read: false } });
  const page = rows.slice(0, opts.limit);
  return { data: page.map(view), next_cursor: rows.length > opts.limit ? page.at(-1)!.id : null, unread_count: unread };
}

export async function markRead(
  tx: Tx,
  orgId: string,
  userId: string | null,
  id: string,
): Promise<NotificationView | null> {
  const row = await tx.notification.findFirst({ where: { id, ...scope(orgId, userId) } });
  if (!row) return null;
  if (row.read) return view(row);
  return view(await tx.notification.update({ where: { id: row.id }, data: { read: true, readAt: new Date() } }));
}

/** Marks every notification the user sees as read; returns how many changed. */
export async function markAllRead(tx: Tx, orgId: string, userId: string | null): Promise<number> {
  const r = await tx.notification.updateMany({
    where: { ...scope(orgId, userId), read: false },
    data: { read: true, readAt: new Date() },
  });
  return r.count;
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
