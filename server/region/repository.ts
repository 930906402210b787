// Region rows as the rest of the app sees them.
import { z } from 'zod';
import type { Db } from '../db/client';

export const REGION_STATUSES = ['active', 'draining', 'down'] as const;

export interface RegionRow {
  code: string;
  label: string;
  country: string;
  timezone: string;
  provider: string;
  status: (typeof REGION_STATUSES)[number];
  baseUrl: string;
  isPrimary: boolean;
}

/** A region as the public sees it (the landing page, find-your-workspace): no infrastructure detail. */
export const publicRegionView = z.object({
  code: z.string(),
  label: z.string(),
  country: z.string(),
  timezone: z.string(),
  status: z.enum(REGION_STATUSES),
  baseUrl: z.string(),
});

export function toPublicRegion(r: RegionRow): z.infer<typeof publicRegionView> {
  return {
    code: r.code,
    label: r.label,
    country: r.country,
    timezone: r.timezone,
    status: r.status,
    baseUrl: r.baseUrl,
  };
}

export async function listRegions(db: Db): Promise<RegionRow[]> {
  const rows = await db.region.findMany({ orderBy: [{ isPrimary: 'desc' }, { code: 'asc' }] });
  return rows.map(({ code, label, country, timezone, provider, status, baseUrl, isPrimary }) => ({
    code,
    label,
    country,
    timezone,
    provider,
    status,
    baseUrl,
    isPrimary,
  }));
}
