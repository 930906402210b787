// Hand-written SQL of a person's settings (settings.ts).
import { statement } from '../db/sql';

export interface SettingsRow {
  /** The slug of a workspace of the user's that is moving (then nothing was changed). */
  moving: string | null;
  theme: string | null;
  default_region: string | null;
  /** The backend that made the change (its announcement of it comes from there). */
  pid: number;
}

/**
 * Changes a person's settings unless one of their workspaces is moving, holding those
 * organizations' rows FOR SHARE (see assertNoWorkspaceMoving's reason in settings.ts), in one
 * statement. $2 the theme (null: unchanged), $3 whether to set the default region, $4 that region.
 */
export const upsertSettingsStatement = statement<
  SettingsRow,
  [userId: string, theme: string | null, setRegion: boolean, region: string | null]
>(
  'users.upsert_settings',
  `WITH orgs AS (
    SELECT o.slug, o.status FROM memberships m JOIN organizations o ON o.id = m.org_id
    WHERE m.user_id = $1::text ORDER BY o.id FOR SHARE OF o
  ), moving AS (
    SELECT slug FROM orgs WHERE status = 'moving' LIMIT 1
  ), saved AS (
    INSERT INTO user_settings AS s (user_id, theme, default_region, updated_at)
    SELECT $1::text, COALESCE($2::text, 'system')::"Theme", CASE WHEN $3::boolean THEN $4::text END, now()
    WHERE NOT EXISTS (SELECT 1 FROM moving)
    ON CONFLICT (user_id) DO UPDATE SET
      theme = COALESCE($2::text::"Theme", s.theme),
      default_region = CASE WHEN $3::boolean THEN $4::text ELSE s.default_region END,
      updated_at = now()
    RETURNING s.theme::text AS theme, s.default_region
  )
  SELECT (SELECT slug FROM moving) AS moving, saved.theme, saved.default_region, pg_backend_pid() AS pid
  FROM (SELECT 1) one LEFT JOIN saved ON true`,
  (r) => ({
    moving: (r.moving as string | null) ?? null,
    theme: (r.theme as string | null) ?? null,
    default_region: (r.default_region as string | null) ?? null,
    pid: Number(r.pid),
  }),
);
