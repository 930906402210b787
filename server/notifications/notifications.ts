// Arc notifications as one person (or, for an API key, the organization) sees them: the
// organization's broadcasts plus their own.
import { read, writeStatement } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { decodeTimeCursor } from '../db/cursor';
import { AppError } from '../errors';
import { markAllReadStatement, markReadStatement } from './notifications.sql';
import { listNotifications, view } from './repository';

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
  const after = opts.cursor !== undefined ? decodeTimeCursor(opts.cursor, 'ntf') : undefined;
  if (opts.cursor !== undefined && !after) {
    throw new AppError('invalid_request', 'cursor: not one this API returned; start again without it');
  }
  return read(req, (db) => listNotifications(db, who.orgId, who.userId, { ...opts, after }));
}

export async function markNotificationRead(req: DataRequest, who: Reader, id: string) {
  // One statement, sent with the bookmark: one round trip (docs/flows/reads-and-writes.md).
  const [n] = await writeStatement(req, (send) => send(markReadStatement, id, who.orgId, who.userId));
  if (!n) throw new AppError('not_found', `no notification ${id}`);
  return view(n);
}

export async function markAllNotificationsRead(req: DataRequest, who: Reader) {
  const [updated = 0] = await writeStatement(req, (send) => send(markAllReadStatement, who.orgId, who.userId));
  return { updated, unread_count: 0 };
}
