// "Find your workspace": slug → {region, name, address, status}, without telling a stranger
// which workspaces exist. Known and unknown slugs do the same work: one query that returns every
// registered region with a flag for the slug's home region (the same rows either way), and the
// decoy HMAC computed every time; an unknown (or only reserved) slug then gets the region the
// HMAC picks, stable for that slug, with that region's status, exactly as a real one would.
import { Prisma } from '../db/generated/client';
import { primary } from '../db/client';
import { isConnectionError } from '../db/access';
import { AppError, isAppError } from '../errors';
import { decoyHash } from './keys';

export interface Resolution {
  region: string;
  name: string;
  address: string;
  /** The region's status (active | draining | down), or `moving` while the workspace moves. */
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
  const hash = decoyHash(slug);
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
  const decoy = rows[hash.readUInt32BE(0) % rows.length]!;
  const home = rows.find((r) => r.workspace_status !== null);
  const chosen = home ?? decoy;
  return {
    region: chosen.code,
    name: chosen.name,
    address: chosen.base_url,
    status: home?.workspace_status === 'moving' ? 'moving' : chosen.status,
  };
}
