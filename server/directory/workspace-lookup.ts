// "Find your workspace": slug → region, name, address and status, the same work for a known slug
// as for a decoy (docs/flows/directory.md, "No enumeration").
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
