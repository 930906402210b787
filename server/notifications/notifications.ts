// Arc notifications as one person (or, for an API key, the organization) sees them: the
// organization's broadcasts plus their own.
import { read, write } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { listNotifications, markAllRead, markRead } from './repository';

/** Whose notifications: the organization, and the signed-in person (null for an API key). */
export interface Reader {
  orgId: string;
  userId: string | null;
}

export function notificationsFor(
  req: DataRequest,
  who: Reader,
  opts: { unreadOnly: boolean; limit: number; cursor?: string },
) {
  return read(req, (db) => listNotifications(db, who.orgId, who.userId, opts));
}

export async function markNotificationRead(req: DataRequest, who: Reader, id: string) {
  const n = await write(req, (tx) => markRead(tx, who.orgId, who.userId, id));
  if (!n) throw new AppError('not_found', `no notification ${id}`);
  return n;
}

export async function markAllNotificationsRead(req: DataRequest, who: Reader) {
  const updated = await write(req, (tx) => markAllRead(tx, who.orgId, who.userId));
  return { updated, unread_count: 0 };
}
