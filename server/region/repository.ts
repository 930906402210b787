// Region rows as the rest of the app sees them.
import type { Db } from '../db/client';

export interface RegionRow {
  code: string;
  label: string;
  country: string;
  timezone: string;
  provider: string;
  status: 'active' | 'draining' | 'down';
  baseUrl: string;
  isPrimary: boolean;
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
