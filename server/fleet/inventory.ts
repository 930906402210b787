// The server inventory as operators list it: filtered, sorted and keyset-paged (./server-sort.ts),
// scoped to the region a request names itself (docs/atlas.md#servers).
import type { z } from 'zod';
import { read } from '../db/access';
import { sharedRead } from '../db/shared-reads';
import type { DataRequest } from '../db/request-state';
import { run } from '../db/sql';
import { AppError } from '../errors';
import { regionRegistry } from '../region/registry';
import {
  countServersStatement,
  listServersStatement,
  SERVER_STATUSES,
  serverRacks,
  serverZones,
  type ServerFilterParams,
  type ServerStatus,
} from './fleet.sql';
import { decodeServerCursor, encodeServerCursor, type ServerSort, type SortOrder } from './server-sort';
import type { ServerRowView, serverFacetsView, serverListView } from './server-views';

export { SERVER_STATUSES, type ServerStatus } from './fleet.sql';

/** Sources that mean the request itself named a region (the session's defaults don't count). */
const EXPLICIT = new Set(['subdomain', 'header', 'query', 'body']);

/** The one region a request is scoped to, or null for every region. */
export function scopedRegion(region: { region: string; source: string } | undefined): string | null {
  return region && EXPLICIT.has(region.source) ? region.region : null;
}

export interface ServerFilter {
  /** `?region=`: also filters (on top of the request's own scope). */
  region?: string;
  status?: ServerStatus;
  zone?: string;
  rack?: string;
  allocation?: 'allocated' | 'free';
  /** A server ID (or its start, `srv_…`) or part of a hostname. */
  q?: string;
  sort: ServerSort;
  order: SortOrder;
  limit: number;
  cursor?: string;
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function filterParams(scope: string | null, f: ServerFilter): ServerFilterParams {
  const q = f.q?.trim();
  return [
    scope,
    f.region || null,
    f.status ?? null,
    f.zone || null,
    f.rack || null,
    f.allocation ?? null,
    q ? `%${likeEscape(q)}%` : null,
    q?.startsWith('srv_') ? `${likeEscape(q)}%` : null,
  ];
}

function sortValue(row: ServerRowView, sort: ServerSort): string {
  return sort === 'created_at' ? row.created_at : String(row[sort]);
}

/** A page of servers (`total`: how many match the filters, over every page). */
export async function listServers(
  req: DataRequest,
  scope: string | null,
  f: ServerFilter,
): Promise<z.infer<typeof serverListView>> {
  const after = f.cursor ? decodeServerCursor(f.cursor, f.sort, f.order) : undefined;
  // Over REST the cascade has checked `?region=` already; a tRPC input's region is checked here.
  if (f.region !== undefined && !(await regionRegistry()).has(f.region)) {
    throw new AppError('invalid_region', `the region filter names no known region (${f.region.slice(0, 40)})`);
  }
  // Status compares in the enum's order: a value the enum lacks is no cursor of this list.
  if (after?.sort === 'status' && !(SERVER_STATUSES as readonly string[]).includes(after.value)) {
    throw new AppError('invalid_request', 'malformed cursor: not a cursor this list gave out');
  }
  const filter = filterParams(scope, f);
  const list = listServersStatement(f.sort, f.order, f.allocation ?? null);
  // The total counts every matching server (O(matches)): shared for a few seconds, so paging
  // through one filter counts once (server/db/shared-reads.ts).
  const [rows, total] = await Promise.all([
    read(req, (db) => run(db, list, ...filter, after?.value ?? null, after?.id ?? null, f.limit + 1)),
    sharedRead(
      req,
      `servers-total:${JSON.stringify(filter)}`,
      async (db) => (await run(db, countServersStatement(f.allocation ?? null), ...filter))[0] ?? 0,
    ),
  ]);
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  return {
    data: page,
    next_cursor:
      rows.length > f.limit && last
        ? encodeServerCursor({ sort: f.sort, order: f.order, value: sortValue(last, f.sort), id: last.id })
        : null,
    total,
  };
}

/** What the filter bar offers: every region, and the zones and racks within the request's scope. */
export async function serverFacets(req: DataRequest, scope: string | null): Promise<z.infer<typeof serverFacetsView>> {
  const regions = (await regionRegistry()).all().map((r) => r.code);
  const [zones, racks] = await sharedRead(req, `server-facets:${scope ?? '*'}`, (db) =>
    Promise.all([run(db, serverZones, scope), run(db, serverRacks, scope)]),
  );
  return { scope_region: scope, regions, zones, racks };
}
