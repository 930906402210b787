// A signed-in person's own settings: theme and default region (which comes before the
// organization's in the region cascade).
import { z } from 'zod';
import { writeStatement } from '../db/access';
import type { Db } from '../db/client';
import type { DataRequest } from '../db/request-state';
import { changed as identityChanged } from '../auth/identity-cache';
import { AppError } from '../errors';
import { allowedRegionOrNull } from '../region/allowed';
import { upsertSettingsStatement } from './settings.sql';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** A person's settings as the API shows them. */
export const settingsView = z.object({ theme: z.enum(THEMES), default_region: z.string().nullable() });
export type SettingsView = z.infer<typeof settingsView>;

export async function settingsOf(db: Db, userId: string): Promise<SettingsView> {
  const row = await db.userSettings.findUnique({ where: { userId } });
  return { theme: row?.theme ?? 'system', default_region: row?.defaultRegion ?? null };
}

/**
 * A person's settings row is part of every one of their workspaces' move bundles (server/moves/
 * tables.ts), whichever workspace the session acts in: while any of them moves, a change would
 * fail that move's verify, so it waits like the workspace's own writes. The statement holds those
 * organizations FOR SHARE: a move's switch to read-only waits for a change already past its check,
 * so none lands after its export.
 */
function workspaceMoving(slug: string): AppError {
  return new AppError(
    'workspace_moving',
    `the workspace ${slug} you belong to is moving to another region: your personal settings are ` +
      'read-only for a few minutes',
    { retryAfter: 120 }, // as the workspace's own writes say (server/api/middleware/stages/workspace-writable.ts)
  );
}

/** Changes what the user sent; a default region must be one of their organization's. */
export async function updateSettings(
  req: DataRequest,
  user: { userId: string; allowedRegions: readonly string[] | undefined },
  input: { theme?: Theme; default_region?: string | null },
): Promise<SettingsView> {
  const region = input.default_region;
  if (region) allowedRegionOrNull(user.allowedRegions, region);
  // One statement, sent with the bookmark: one round trip (docs/flows/reads-and-writes.md).
  let pid: number | undefined;
  const saved = await writeStatement(req, async (send) => {
    const [r] = await send(
      upsertSettingsStatement,
      user.userId,
      input.theme ?? null,
      region !== undefined,
      region ?? null,
    );
    if (!r) throw new Error('settings upsert returned no row');
    if (r.moving) throw workspaceMoving(r.moving);
    pid = r.pid;
    return { theme: r.theme as Theme, default_region: r.default_region };
  });
  // The default region is part of the session (the theme is not: it is read with the bookmark).
  if (region !== undefined) identityChanged([`user:${user.userId}`], { lsn: req.consistency.newBookmark, pid });
  return saved;
}
