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
import { Prisma } from '../db/generated/client';
import { primary } from '../db/client';
import { isConnectionError } from '../db/access';
import { AppError, isAppError } from '../errors';
import { decoyHash } from './keys';

export interface Resolution {
  region: string;
  name: string;
  address: string;
  /** The region's status (active | draining | down), for a workspace that moves as for any other. */
  status: string;
}

interface Row {
  code: string;
  name: string;
  base_url: string;
  status: string;
  workspace_status: string | null;
}

export async function resolveWorkspace(slug: string): Promise<Resolution> {
  let rows: Row[];
  try {
    rows = await primary().$queryRaw<Row[]>(Prisma.sql`
      SELECT r.code, r.name, r.base_url, r.status, w.status::text AS workspace_status
      FROM "directory"."regions" r
      LEFT JOIN "directory"."workspaces" w ON w.slug = ${slug} AND w.region = r.code AND w.status <> 'reserved'
      ORDER BY r.code`);
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
