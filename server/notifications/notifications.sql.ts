// Hand-written SQL of notifications: marking read, each in one statement (notifications.ts), and the
// retention sweep (retention.ts).
import { command, statement } from '../db/sql';
import type { RawRow } from '../db/sql';

/** A notification row as node-postgres hands it over (timestamps as Dates). */
export interface NotificationRow {
  id: string;
  kind: string;
  title: string;
  body: string;
  resourceId: string | null;
  read: boolean;
  readAt: Date | null;
  createdAt: Date;
}

const COLUMNS = 'id, kind, title, body, resource_id, read, read_at, created_at';

const toRow = (r: RawRow): NotificationRow => ({
  id: r.id as string,
  kind: r.kind as string,
  title: r.title as string,
  body: r.body as string,
  resourceId: (r.resource_id as string | null) ?? null,
  read: r.read === true,
  readAt: (r.read_at as Date | null) ?? null,
  createdAt: r.created_at as Date,
});

/** Who sees a notification: the organization's ($2) broadcasts, and the user's ($3) own. */
const SCOPE = 'org_id = $2::text AND (user_id IS NULL OR user_id = $3::text)';

/**
 * Marks notification $1 read if the reader sees it and it is unread; answers it either way (as it
 * is now), or no row when the reader does not see it.
 */
export const markReadStatement = statement<NotificationRow, [id: string, orgId: string, userId: string | null]>(
  'notifications.mark_read',
  `WITH target AS (
    SELECT id, read FROM notifications WHERE id = $1::text AND ${SCOPE}
  ), marked AS (
    UPDATE notifications n SET read = true, read_at = now() FROM target t
    WHERE n.id = t.id AND NOT t.read
    RETURNING n.${COLUMNS.split(', ').join(', n.')}
  )
  SELECT ${COLUMNS} FROM marked
  UNION ALL
  SELECT ${COLUMNS} FROM notifications WHERE id = (SELECT id FROM target WHERE read)`,
  toRow,
);

/** Marks every unread notification the reader sees read; one row: how many changed. */
export const markAllReadStatement = statement<number, [orgId: string, userId: string | null]>(
  'notifications.mark_all_read',
  `WITH marked AS (
    UPDATE notifications SET read = true, read_at = now()
    WHERE org_id = $1::text AND (user_id IS NULL OR user_id = $2::text) AND NOT read
    RETURNING 1
  ) SELECT count(*)::int AS n FROM marked`,
  (r) => Number(r.n),
);

/**
 * Deletes notifications older than $1 days, and each organization's beyond its newest $2 (by
 * created_at, then ID: the list's order). An organization being moved is left alone: its export
 * and verify must read the same rows. The organizations pruned are held FOR SHARE, so a move's
 * switch to read-only waits for the prune to commit (one begun before it would else delete
 * under the export).
 */
export const pruneNotificationsStatement = command<[retentionDays: number, maxPerOrg: number]>(
  'notifications.prune',
  `WITH crowded AS (
    SELECT org_id FROM notifications GROUP BY org_id HAVING count(*) > $2::int
  ), live AS (
    SELECT o.id FROM organizations o
     WHERE o.status <> 'moving'
       AND (o.id IN (SELECT org_id FROM crowded)
         OR o.id IN (SELECT org_id FROM notifications WHERE created_at < now() - make_interval(days => $1::int)))
     FOR SHARE OF o
  )
  DELETE FROM notifications WHERE id IN (
    SELECT id FROM notifications
    WHERE org_id IN (SELECT id FROM live) AND created_at < now() - make_interval(days => $1::int)
    UNION
    SELECT x.id FROM live l JOIN crowded c ON c.org_id = l.id CROSS JOIN LATERAL (
      SELECT id FROM notifications WHERE org_id = c.org_id ORDER BY created_at DESC, id DESC OFFSET $2::int
    ) x
  )`,
);
