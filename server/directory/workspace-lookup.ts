// "Find your workspace": slug → {region, name, address, status}, without telling a stranger
// which workspaces exist. Known and unknown slugs do the same work: one query that returns every
// registered region with a flag for the slug's home region (the same rows either way), and the
// decoy HMACs computed every time; an unknown (or only reserved) slug then gets the region the
// HMACs pick, stable for that slug, with that region's status, exactly as a real one would.
// What a watcher could compare over time stays alike too: the answer never says `moving` (a
// decoy could never say it; the region itself answers a moving workspace's sign-in with
// workspace_moving), and the decoy is chosen by rendezvous hashing (the region whose HMAC of
// slug and region code is highest), so adding a region moves only the decoys the new region now
// wins, about 1 in n+1 and only to it, instead of reshuffling every decoy while real workspaces
// stay put.
import { readPrimary } from '../db/primary-reads';
import { run } from '../db/sql';
import { isConnectionError } from '../db/connection-errors';
import { AppError, isAppError } from '../errors';
import { regionsForSlug, type RegionForSlug } from './directory.sql';
import { decoyHash } from './keys';

export interface WorkspaceLookup {
  region: string;
  name: string;
  address: string;
  /** The region's status (active | draining | down), for a workspace that moves as for any other. */
  status: string;
}

type Row = RegionForSlug;

export async function lookUpWorkspace(slug: string): Promise<WorkspaceLookup> {
  let rows: Row[];
  try {
    // The directory's answer is the primary's: a slug just moved must resolve to its new home.
    rows = await readPrimary((db) => run(db, regionsForSlug, slug));
  } catch (e) {
    if (!isAppError(e) && isConnectionError(e)) {
      throw new AppError('directory_unavailable', 'the directory is unavailable: try again in a minute', {
        retryAfter: 30,
        cause: e,
      });
    }
    throw e;
  }
  if (rows.length === 0)
    throw new AppError('directory_unavailable', 'no region has registered with the directory yet', { retryAfter: 30 });
  const decoy = rendezvous(slug, rows);
  const home = rows.find((r) => r.workspace_status !== null);
  const chosen = home ?? decoy;
  return { region: chosen.code, name: chosen.name, address: chosen.base_url, status: chosen.status };
}

/** The row whose keyed hash of (slug, region code) is highest: one HMAC per region, every time. */
export function rendezvous<T extends { code: string }>(slug: string, rows: readonly T[]): T {
  let best = rows[0]!;
  let bestScore: Buffer | undefined;
  for (const r of rows) {
    const score = decoyHash(`${slug}\u0000${r.code}`);
    if (!bestScore || Buffer.compare(score, bestScore) > 0) {
      best = r;
      bestScore = score;
    }
  }
  return best;
}
