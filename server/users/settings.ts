// A signed-in person's own settings: theme and default region (which comes before the
// organization's in the region cascade).
import { z } from 'zod';
import { write, type Tx } from '../db/access';
import type { Db } from '../db/client';
import type { DataRequest } from '../db/request-state';
import { run } from '../db/sql';
import { changed as identityChanged } from '../auth/identity-cache';
import { AppError } from '../errors';
import { allowedRegionOrNull } from '../region/allowed';
import { membershipOrgsForShare } from './settings.sql';

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
 * fail that move's verify, so it waits like the workspace's own writes. FOR SHARE: a move's
 * switch to read-only waits for a change already past this check, so none lands after its export.
 */
async function assertNoWorkspaceMoving(tx: Tx, userId: string): Promise<void> {
  const orgs = await run(tx, membershipOrgsForShare, userId);
  const moving = orgs.find((o) => o.status === 'moving');
  if (!moving) return;
  throw new AppError(
    'workspace_moving',
    `the workspace ${moving.slug} you belong to is moving to another region: your personal settings are ` +
      'read-only for a few minutes',
    { retryAfter: 120 }, // as the workspace's own writes say (server/api/middleware/stages/workspace-writable.ts)
  );
}

async function upsertSettings(tx: Tx, userId: string, data: { theme?: Theme; defaultRegion?: string | null }) {
  await assertNoWorkspaceMoving(tx, userId);
  const row = await tx.userSettings.upsert({ where: { userId }, create: { userId, ...data }, update: data });
  return { theme: row.theme, default_region: row.defaultRegion };
}

/** Changes what the user sent; a default region must be one of their organization's. */
export async function updateSettings(
  req: DataRequest,
  user: { userId: string; allowedRegions: readonly string[] | undefined },
  input: { theme?: Theme; default_region?: string | null },
): Promise<SettingsView> {
  const region = input.default_region;
  if (region) allowedRegionOrNull(user.allowedRegions, region);
  const saved = await write(req, (tx) =>
    upsertSettings(tx, user.userId, {
      ...(input.theme ? { theme: input.theme } : {}),
      ...(region !== undefined ? { defaultRegion: region } : {}),
    }),
  );
  identityChanged([`user:${user.userId}`]); // the default region is part of the session
  return saved;
}
