// A signed-in person's own settings: theme and default region (which comes before the
// organization's in the region cascade).
import { write, type Tx } from '../db/access';
import type { Db } from '../db/client';
import type { DataRequest } from '../db/request-state';
import { changed as identityChanged } from '../auth/identity-cache';
import { allowedRegionOrNull } from '../region/allowed';

export type Theme = 'system' | 'light' | 'dark';

export interface SettingsView {
  theme: Theme;
  default_region: string | null;
}

export async function settingsOf(db: Db, userId: string): Promise<SettingsView> {
  const row = await db.userSettings.findUnique({ where: { userId } });
  return { theme: row?.theme ?? 'system', default_region: row?.defaultRegion ?? null };
}

async function upsertSettings(tx: Tx, userId: string, data: { theme?: Theme; defaultRegion?: string | null }) {
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
