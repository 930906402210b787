// Hand-written SQL of the server fleet: the Atlas server list (a statement per sort, order and
// allocation filter), its facets, one server with its live allocation, the provisioning lock.
import { command, statement, type RawRow, type Statement } from '../db/sql';
import type { ServerRowView } from './server-views';
import { SERVER_SORTS, type ServerSort, type SortOrder } from './server-sort';

export const SERVER_STATUSES = ['available', 'provisioning', 'allocated', 'maintenance', 'offline'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];

const iso = (v: unknown) => (v instanceof Date ? v : new Date(v as string)).toISOString();

const serverRow = (r: RawRow): ServerRowView => ({
  id: r.id as string,
  hostname: r.hostname as string,
  region: r.region as string,
  zone: r.zone as string,
  rack: r.rack as string,
  cage: r.cage as string,
  status: r.status as ServerStatus,
  model: r.model as string,
  cpu_cores: Number(r.cpu_cores),
  memory_gb: Number(r.memory_gb),
  storage_gb: Number(r.storage_gb),
  gpu_count: Number(r.gpu_count),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
  allocation: r.cluster_id
    ? {
        cluster_id: r.cluster_id as string,
        cluster_name: (r.cluster_name as string | null) ?? '',
        role: (r.role as string | null) ?? '',
        org_slug: (r.org_slug as string | null) ?? '',
        org_name: (r.org_name as string | null) ?? '',
      }
    : null,
});

/** Servers with their current allocation (at most one live allocation per server). */
const FROM = `
  FROM servers s
  LEFT JOIN LATERAL (
    SELECT al.cluster_id, al.role FROM allocations al
    WHERE al.server_id = s.id AND al.released_at IS NULL
    ORDER BY al.created_at LIMIT 1
  ) a ON TRUE
  LEFT JOIN clusters c ON c.id = a.cluster_id
  LEFT JOIN organizations o ON o.id = c.org_id`;

const COLUMNS = `
  s.id, s.hostname, s.region, s.zone, s.rack, s.cage, s.status::text AS status, s.model,
  s.cpu_cores, s.memory_gb, s.storage_gb, s.gpu_count, s.created_at, s.updated_at,
  a.cluster_id, c.name AS cluster_name, a.role, o.slug AS org_slug, o.name AS org_name`;

/** Filters, each absent as null: scope, region, status, zone, rack, allocation, hostname and ID patterns. */
export type ServerFilterParams = [
  scope: string | null,
  region: string | null,
  status: string | null,
  zone: string | null,
  rack: string | null,
  allocation: ServerAllocation | null,
  hostnameLike: string | null,
  idLike: string | null,
];

export type ServerAllocation = 'allocated' | 'free';
/** A statement per allocation filter: 'any' when the list is not filtered by it. */
type AllocationVariant = ServerAllocation | 'any';
const ALLOCATION_VARIANTS: AllocationVariant[] = ['any', 'allocated', 'free'];

const LIVE_ALLOCATION = 'SELECT 1 FROM allocations al WHERE al.server_id = s.id AND al.released_at IS NULL';

/**
 * The allocation filter as a semi- or anti-join, written into the statement rather than compared
 * to $6 at run time: the planner estimates an EXISTS from the tables' statistics, but guessed one
 * row for "the lateral join found nothing" and nested a scan of every organization in it (20 s for
 * `?allocation=free` over 100,000 servers). $6 still names the variant the caller picked.
 */
const ALLOCATION_FILTER: Record<AllocationVariant, string> = {
  any: '$6::text IS NULL',
  allocated: `$6::text = 'allocated' AND EXISTS (${LIVE_ALLOCATION})`,
  free: `$6::text = 'free' AND NOT EXISTS (${LIVE_ALLOCATION})`,
};

const where = (allocation: AllocationVariant) => `
  WHERE ($1::text IS NULL OR s.region = $1)
    AND ($2::text IS NULL OR s.region = $2)
    AND ($3::text IS NULL OR s.status = $3::"ServerStatus")
    AND ($4::text IS NULL OR s.zone = $4)
    AND ($5::text IS NULL OR s.rack = $5)
    AND ${ALLOCATION_FILTER[allocation]}
    AND ($7::text IS NULL OR s.hostname ILIKE $7 OR s.id LIKE $8::text)`;

/** The sort column, the cursor's value cast as that column is typed (status in the enum's order). */
const SORT: Record<ServerSort, { column: string; value: string }> = {
  hostname: { column: 's.hostname', value: '$9::text' },
  created_at: { column: 's.created_at', value: '$9::text::timestamptz' },
  status: { column: 's.status', value: '$9::text::"ServerStatus"' },
  region: { column: 's.region', value: '$9::text' },
};

type ListParams = [...ServerFilterParams, afterValue: string | null, afterId: string | null, limit: number];

function listSql(sort: ServerSort, order: SortOrder, allocation: AllocationVariant): string {
  const { column, value } = SORT[sort];
  const dir = order === 'desc' ? 'DESC' : 'ASC';
  return `SELECT ${COLUMNS} ${FROM} ${where(allocation)}
    AND ($9::text IS NULL OR (${column}, s.id) ${order === 'desc' ? '<' : '>'} (${value}, $10::text))
    ORDER BY ${column} ${dir}, s.id ${dir}
    LIMIT $11::int`;
}

const suffix = (allocation: AllocationVariant) => (allocation === 'any' ? '' : `_${allocation}`);

type ListStatement = Statement<ServerRowView, ListParams>;

/** The list statement of each sort, order and allocation filter (a keyset page: the cursor's value and ID, or nulls). */
const listStatements = Object.fromEntries(
  SERVER_SORTS.flatMap((sort) =>
    (['asc', 'desc'] as const).flatMap((order) =>
      ALLOCATION_VARIANTS.map((allocation) => {
        const name = `fleet.list_servers_${sort}_${order}${suffix(allocation)}`;
        return [name, statement<ServerRowView, ListParams>(name, listSql(sort, order, allocation), serverRow)];
      }),
    ),
  ),
) as Record<string, ListStatement>;

export const listServersStatement = (sort: ServerSort, order: SortOrder, allocation: ServerAllocation | null) =>
  listStatements[`fleet.list_servers_${sort}_${order}${suffix(allocation ?? 'any')}`]!;

/**
 * How many servers match: the servers alone (no allocation, cluster or organization joined for
 * each). Over 100,000 servers the joined count took 200–650 ms.
 */
const countStatements = Object.fromEntries(
  ALLOCATION_VARIANTS.map((allocation) => {
    const name = `fleet.count_servers${suffix(allocation)}`;
    return [
      allocation,
      statement<number, ServerFilterParams>(name, `SELECT count(*) AS n FROM servers s ${where(allocation)}`, (r) =>
        Number(r.n),
      ),
    ];
  }),
) as Record<AllocationVariant, Statement<number, ServerFilterParams>>;

export const countServersStatement = (allocation: ServerAllocation | null) => countStatements[allocation ?? 'any'];

export const serverZones = statement<string, [scope: string | null]>(
  'fleet.server_zones',
  'SELECT DISTINCT zone AS v FROM servers WHERE ($1::text IS NULL OR region = $1) ORDER BY 1',
  (r) => r.v as string,
);

export const serverRacks = statement<string, [scope: string | null]>(
  'fleet.server_racks',
  'SELECT DISTINCT rack AS v FROM servers WHERE ($1::text IS NULL OR region = $1) ORDER BY 1',
  (r) => r.v as string,
);

export const serverById = statement<ServerRowView, [id: string]>(
  'fleet.server_by_id',
  `SELECT ${COLUMNS} ${FROM} WHERE s.id = $1::text`,
  serverRow,
);

/** The server's row, locked FOR UPDATE to the end of the transaction. */
export const serverForUpdate = statement<{ region: string; hostname: string; status: ServerStatus }, [id: string]>(
  'fleet.server_for_update',
  'SELECT region, hostname, status::text AS status FROM servers WHERE id = $1::text FOR UPDATE',
  (r) => ({ region: r.region as string, hostname: r.hostname as string, status: r.status as ServerStatus }),
);

/** Merges facts into a server's metadata (firmware, image…). */
export const mergeServerMetadata = command<[facts: string, now: Date, id: string]>(
  'fleet.merge_server_metadata',
  'UPDATE servers SET metadata = metadata || $1::jsonb, updated_at = $2::timestamptz WHERE id = $3::text',
);
