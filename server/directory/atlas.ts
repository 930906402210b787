// Atlas' view of the directory: every workspace (slug, region, status, last change), by slug,
// a page at a time (the cursor is the last slug), optionally for one region.
import { z } from 'zod';
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';

export const directoryWorkspaceView = z.object({
  slug: z.string(),
  region: z.string(),
  region_name: z.string(),
  region_status: z.string(),
  status: z.enum(['active', 'moving', 'reserved']),
  sequence: z.number().int(),
  updated_at: z.string(),
  offered_to: z.string().nullable().describe('While the workspace moves: the region it was offered to'),
});
export type DirectoryWorkspaceView = z.infer<typeof directoryWorkspaceView>;

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
