// Capacity of a region for a template: servers of the right kind that are available, less the
// nodes already promised to clusters that have not allocated theirs yet.
import { z } from 'zod';
import type { Db } from '../db/client';
import type { Tx } from '../db/access';
import { sharedRead } from '../db/shared-reads';
import type { DataRequest } from '../db/request-state';
import { run } from '../db/sql';
import { freeNodes } from './clusters.sql';
import { DEFAULT_VERSION, TEMPLATES } from './templates';

export const GPU_TEMPLATES = TEMPLATES.filter((t) => t.gpu).map((t) => t.id);

/** Free nodes per (region, gpu) among `regions`. */
export async function capacity(db: Db | Tx, regions: string[]): Promise<Map<string, { cpu: number; gpu: number }>> {
  const rows = await run(db, freeNodes, regions, GPU_TEMPLATES);
  const out = new Map(regions.map((r) => [r, { cpu: 0, gpu: 0 }]));
  for (const r of rows) {
    const slot = out.get(r.region)!;
    slot[r.gpu ? 'gpu' : 'cpu'] = Math.max(0, Number(r.free));
  }
  return out;
}

/** A template as the API shows it, with its free nodes in each of the caller's regions. */
export const templateCapacityView = z.object({
  id: z.string(),
  label: z.string(),
  description: z.string(),
  min_nodes: z.number(),
  max_nodes: z.number(),
  gpu: z.boolean(),
  versions: z.array(z.string()),
  default_version: z.string(),
  capacity: z.record(z.string(), z.number()).describe('free nodes per region'),
});

/** Every template with its free nodes in each of the organization's regions. */
export async function templatesWithCapacity(
  req: DataRequest,
  allowedRegions: string[],
): Promise<{ data: z.infer<typeof templateCapacityView>[] }> {
  // Shared by every caller for a few seconds (server/db/shared-reads.ts): counting a region's
  // available servers is O(servers), and a create checks for real anyway.
  const regions = [...allowedRegions].sort();
  const free = await sharedRead(req, `free-nodes:${regions.join(',')}`, (db) => capacity(db, regions));
  return {
    data: TEMPLATES.map((t) => ({
      id: t.id,
      label: t.label,
      description: t.description,
      min_nodes: t.minNodes,
      max_nodes: t.maxNodes,
      gpu: t.gpu,
      versions: t.versions,
      default_version: t.versions.includes(DEFAULT_VERSION) ? DEFAULT_VERSION : t.versions[0]!,
      capacity: Object.fromEntries(allowedRegions.map((r) => [r, free.get(r)![t.gpu ? 'gpu' : 'cpu']])),
    })),
  };
}
