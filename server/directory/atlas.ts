// Atlas' view of the directory: every workspace (slug, region, status, last change), by slug,
// a page at a time (the cursor is the last slug), optionally for one region.
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';

export interface DirectoryWorkspaceView {
  slug: string;
  region: string;
  region_name: string;
  region_status: string;
  status: 'active' | 'moving' | 'reserved';
  sequence: number;
  updated_at: string;
  /** While it moves: the region it was offered to (the handover's first half). */
  offered_to: string | null;
}

export async function listDirectoryWorkspaces(
  req: DataRequest,
  f: { region?: string; limit: number; cursor?: string },
): Promise<{ data: DirectoryWorkspaceView[]; next_cursor: string | null }> {
  const rows = await read(req, (db) =>
    db.directoryWorkspace.findMany({
      where: { ...(f.region ? { region: f.region } : {}), ...(f.cursor ? { slug: { gt: f.cursor } } : {}) },
      include: { regionRef: { select: { name: true, status: true } } },
      orderBy: { slug: 'asc' },
      take: f.limit + 1,
    }),
  );
  const page = rows.slice(0, f.limit);
  return {
    data: page.map((w) => ({
      slug: w.slug,
      region: w.region,
      region_name: w.regionRef.name,
      region_status: w.regionRef.status,
      status: w.status,
      sequence: w.sequence,
      updated_at: w.updatedAt.toISOString(),
      offered_to: w.offeredTo,
    })),
    next_cursor: rows.length > f.limit ? (page.at(-1)?.slug ?? null) : null,
  };
}
