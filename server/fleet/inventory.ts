// Atlas' servers: every physical server of every region, as operators see them. A list filtered
// by region, status, zone, rack, allocated-or-free and a search (ID or hostname), sorted and
// paged by keyset cursors; one server with its placement, hardware, current allocation and
// history; and provisioning a server through a provision-server workflow run.
//
// Region scope: a request that names a region itself (subdomain, X-Region, ?region=) sees only
// that region's servers; one that names none sees every region. The cascade has already checked
// that a named region is well-formed and known (400 invalid_region).
import { recordAudit } from '../audit/audit';
import { read, write, type Tx } from '../db/access';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { isId } from '../ids';
import { regionRegistry } from '../region/registry';
import { startRun } from '../workflows/runs';
import { provisionServerWorkflow } from './provision-workflow';
import {
  decodeServerCursor,
  encodeServerCursor,
  type ServerCursor,
  type ServerSort,
  type SortOrder,
} from './server-cursor';

export const SERVER_STATUSES = ['available', 'provisioning', 'allocated', 'maintenance', 'offline'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];

export const SERVER_PROVISION_AUDIT_ACTION = 'operator.server.provision' as const;

/** What a provision-server run installs (recorded on the run and, once done, on the server). */
export const PROVISION_FIRMWARE = 'MX-BMC 4.2.1 / BIOS 2.18';
export const PROVISION_IMAGE = 'meridian-node-2026.11';

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

export interface ServerAllocationView {
  id: string;
  role: string;
  created_at: string;
  released_at: string | null;
  cluster: { id: string; name: string; status: string } | null;
  organization: { id: string; slug: string; name: string } | null;
}

export interface ServerRowView {
  id: string;
  hostname: string;
  region: string;
  zone: string;
  rack: string;
  cage: string;
  status: ServerStatus;
  model: string;
  cpu_cores: number;
  memory_gb: number;
  storage_gb: number;
  gpu_count: number;
  created_at: string;
  updated_at: string;
  /** The cluster (and its organization) the server is allocated to now, or null when free. */
  allocation: { cluster_id: string; cluster_name: string; role: string; org_slug: string; org_name: string } | null;
}

interface ServerSqlRow {
  id: string;
  hostname: string;
  region: string;
  zone: string;
  rack: string;
  cage: string;
  status: ServerStatus;
  model: string;
  cpu_cores: number;
  memory_gb: number;
  storage_gb: number;
  gpu_count: number;
  created_at: Date;
  updated_at: Date;
  cluster_id: string | null;
  cluster_name: string | null;
  role: string | null;
  org_slug: string | null;
  org_name: string | null;
}

const SORT_COLUMN: Record<ServerSort, Prisma.Sql> = {
  hostname: Prisma.sql`s.hostname`,
  created_at: Prisma.sql`s.created_at`,
  status: Prisma.sql`s.status`,
  region: Prisma.sql`s.region`,
};

/** The cursor's value, typed as its column is (status compares in the enum's order). */
function cursorValue(c: ServerCursor): Prisma.Sql {
  switch (c.sort) {
    case 'created_at':
      return Prisma.sql`${new Date(c.value)}::timestamptz`;
    case 'status':
      if (!(SERVER_STATUSES as readonly string[]).includes(c.value)) {
        throw new AppError('invalid_request', 'malformed cursor: not a cursor this list gave out');
      }
      return Prisma.sql`${c.value}::"ServerStatus"`;
    default:
      return Prisma.sql`${c.value}`;
  }
}

function sortValue(row: ServerSqlRow, sort: ServerSort): string {
  return sort === 'created_at' ? row.created_at.toISOString() : String(row[sort]);
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function whereOf(scope: string | null, f: ServerFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (scope) parts.push(Prisma.sql`s.region = ${scope}`);
  if (f.region) parts.push(Prisma.sql`s.region = ${f.region}`);
  if (f.status) parts.push(Prisma.sql`s.status = ${f.status}::"ServerStatus"`);
  if (f.zone) parts.push(Prisma.sql`s.zone = ${f.zone}`);
  if (f.rack) parts.push(Prisma.sql`s.rack = ${f.rack}`);
  if (f.allocation === 'allocated') parts.push(Prisma.sql`a.cluster_id IS NOT NULL`);
  if (f.allocation === 'free') parts.push(Prisma.sql`a.cluster_id IS NULL`);
  const q = f.q?.trim();
  if (q) {
    const byId = q.startsWith('srv_') ? Prisma.sql` OR s.id LIKE ${`${likeEscape(q)}%`}` : Prisma.empty;
    parts.push(Prisma.sql`(s.hostname ILIKE ${`%${likeEscape(q)}%`}${byId})`);
  }
  return Prisma.join(parts, ' AND ');
}

/** Servers with their current allocation (at most one live allocation per server). */
const FROM = Prisma.sql`
  FROM servers s
  LEFT JOIN LATERAL (
    SELECT al.cluster_id, al.role FROM allocations al
    WHERE al.server_id = s.id AND al.released_at IS NULL
    ORDER BY al.created_at LIMIT 1
  ) a ON TRUE
  LEFT JOIN clusters c ON c.id = a.cluster_id
  LEFT JOIN organizations o ON o.id = c.org_id`;

const COLUMNS = Prisma.sql`
  s.id, s.hostname, s.region, s.zone, s.rack, s.cage, s.status::text AS status, s.model,
  s.cpu_cores, s.memory_gb, s.storage_gb, s.gpu_count, s.created_at, s.updated_at,
  a.cluster_id, c.name AS cluster_name, a.role, o.slug AS org_slug, o.name AS org_name`;

function rowView(r: ServerSqlRow): ServerRowView {
  return {
    id: r.id,
    hostname: r.hostname,
    region: r.region,
    zone: r.zone,
    rack: r.rack,
    cage: r.cage,
    status: r.status,
    model: r.model,
    cpu_cores: r.cpu_cores,
    memory_gb: r.memory_gb,
    storage_gb: r.storage_gb,
    gpu_count: r.gpu_count,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    allocation: r.cluster_id
      ? {
          cluster_id: r.cluster_id,
          cluster_name: r.cluster_name ?? '',
          role: r.role ?? '',
          org_slug: r.org_slug ?? '',
          org_name: r.org_name ?? '',
        }
      : null,
  };
}

/** A page of servers (`total`: how many match the filters, over every page). */
export async function listServers(
  req: DataRequest,
  scope: string | null,
  f: ServerFilter,
): Promise<{ data: ServerRowView[]; next_cursor: string | null; total: number }> {
  const after = f.cursor ? decodeServerCursor(f.cursor, f.sort, f.order) : undefined;
  // Over REST the cascade has checked `?region=` already; a tRPC input's region is checked here.
  if (f.region !== undefined && !(await regionRegistry()).has(f.region)) {
    throw new AppError('invalid_region', `the region filter names no known region (${f.region.slice(0, 40)})`);
  }
  const where = whereOf(scope, f);
  const col = SORT_COLUMN[f.sort];
  const dir = f.order === 'desc' ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const keyset = after
    ? f.order === 'desc'
      ? Prisma.sql`AND (${col}, s.id) < (${cursorValue(after)}, ${after.id})`
      : Prisma.sql`AND (${col}, s.id) > (${cursorValue(after)}, ${after.id})`
    : Prisma.empty;
  const { rows, total } = await read(req, async (db) => {
    const rows = await db.$queryRaw<ServerSqlRow[]>`
      SELECT ${COLUMNS} ${FROM}
      WHERE ${where} ${keyset}
      ORDER BY ${col} ${dir}, s.id ${dir}
      LIMIT ${f.limit + 1}`;
    const [count] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n ${FROM} WHERE ${where}`;
    return { rows, total: Number(count?.n ?? 0) };
  });
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  return {
    data: page.map(rowView),
    next_cursor:
      rows.length > f.limit && last
        ? encodeServerCursor({ sort: f.sort, order: f.order, value: sortValue(last, f.sort), id: last.id })
        : null,
    total,
  };
}

/** What the filter bar offers: every region, and the zones and racks within the request's scope. */
export async function serverFacets(
  req: DataRequest,
  scope: string | null,
): Promise<{ scope_region: string | null; regions: string[]; zones: string[]; racks: string[] }> {
  const regions = (await regionRegistry()).all().map((r) => r.code);
  const where = scope ? Prisma.sql`WHERE region = ${scope}` : Prisma.empty;
  const [zones, racks] = await read(req, (db) =>
    Promise.all([
      db.$queryRaw<{ v: string }[]>`SELECT DISTINCT zone AS v FROM servers ${where} ORDER BY 1`,
      db.$queryRaw<{ v: string }[]>`SELECT DISTINCT rack AS v FROM servers ${where} ORDER BY 1`,
    ]),
  );
  return { scope_region: scope, regions, zones: zones.map((z) => z.v), racks: racks.map((r) => r.v) };
}

// ---- one server ---------------------------------------------------------------------------

const HISTORY = 20;

export interface RunStepView {
  position: number;
  name: string;
  status: string;
  attempts: number;
  error: string | null;
  started_at: string | null;
  finished_at: string | null;
}

export interface ServerRunView {
  id: string;
  kind: string;
  region: string;
  server_id: string | null;
  status: string;
  error: string | null;
  requested_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  steps: RunStepView[];
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

type RunWithSteps = Prisma.WorkflowRunGetPayload<{ include: { steps: true } }>;

function runView(run: RunWithSteps, emails: Map<string, string>): ServerRunView {
  const requestedBy = (run.input as { requested_by?: unknown } | null)?.requested_by;
  return {
    id: run.id,
    kind: run.kind,
    region: run.region,
    server_id: run.serverId,
    status: run.status,
    error: run.error,
    requested_by: typeof requestedBy === 'string' ? (emails.get(requestedBy) ?? requestedBy) : null,
    created_at: run.createdAt.toISOString(),
    started_at: iso(run.startedAt),
    finished_at: iso(run.finishedAt),
    steps: [...run.steps]
      .sort((a, b) => a.position - b.position)
      .map((s) => ({
        position: s.position,
        name: s.name,
        status: s.status,
        attempts: s.attempts,
        error: s.error,
        started_at: iso(s.startedAt),
        finished_at: iso(s.finishedAt),
      })),
  };
}

async function emailsOf(db: Db | Tx, runs: RunWithSteps[]): Promise<Map<string, string>> {
  const ids = [
    ...new Set(
      runs
        .map((r) => (r.input as { requested_by?: unknown } | null)?.requested_by)
        .filter((v): v is string => typeof v === 'string'),
    ),
  ];
  if (!ids.length) return new Map();
  const users = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } });
  return new Map(users.map((u) => [u.id, u.email]));
}

function notFound(id: string): AppError {
  return new AppError('not_found', `no server ${id.length > 40 ? `${id.slice(0, 40)}…` : id}`);
}

async function serverRow(db: Db | Tx, id: string): Promise<ServerSqlRow | undefined> {
  const [row] = await db.$queryRaw<ServerSqlRow[]>`SELECT ${COLUMNS} ${FROM} WHERE s.id = ${id}`;
  return row;
}

async function detailOf(db: Db, id: string) {
  const row = await serverRow(db, id);
  if (!row) return null;
  const [server, allocations, runs, audit] = await Promise.all([
    db.server.findUniqueOrThrow({ where: { id }, select: { metadata: true } }),
    db.allocation.findMany({
      where: { serverId: id },
      include: {
        cluster: {
          select: {
            id: true,
            name: true,
            status: true,
            organization: { select: { id: true, slug: true, name: true } },
          },
        },
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: HISTORY + 10,
    }),
    db.workflowRun.findMany({
      where: { serverId: id },
      include: { steps: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: HISTORY,
    }),
    db.auditEvent.findMany({
      where: { targetType: 'server', targetId: id },
      include: { actor: { select: { id: true, email: true } } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: HISTORY,
    }),
  ]);
  const emails = await emailsOf(db, runs);
  const allocation = (a: (typeof allocations)[number]): ServerAllocationView => ({
    id: a.id,
    role: a.role,
    created_at: a.createdAt.toISOString(),
    released_at: iso(a.releasedAt),
    cluster: a.cluster ? { id: a.cluster.id, name: a.cluster.name, status: a.cluster.status } : null,
    organization: a.cluster?.organization ?? null,
  });
  return {
    ...rowView(row),
    metadata: (server.metadata ?? {}) as Record<string, unknown>,
    allocations: allocations.filter((a) => !a.releasedAt).map(allocation),
    latest_run: runs[0] ? runView(runs[0], emails) : null,
    history: {
      allocations: allocations
        .filter((a) => a.releasedAt)
        .slice(0, HISTORY)
        .map(allocation),
      runs: runs.map((r) => runView(r, emails)),
      audit: audit.map((e) => ({
        id: e.id,
        action: e.action,
        actor: e.actor ? { id: e.actor.id, email: e.actor.email } : null,
        request_id: e.requestId,
        metadata: (e.metadata ?? {}) as Record<string, unknown>,
        created_at: e.createdAt.toISOString(),
      })),
    },
  };
}

export type ServerDetail = NonNullable<Awaited<ReturnType<typeof detailOf>>>;

/** One server with its allocations, runs (the latest with its steps) and audit trail; 404 otherwise. */
export async function serverDetail(req: DataRequest, scope: string | null, id: string): Promise<ServerDetail> {
  if (!isId(id, 'srv')) throw notFound(id); // never a query for something that can't exist
  const found = await read(req, (db) => detailOf(db, id));
  if (!found || (scope && found.region !== scope)) throw notFound(id);
  return found;
}

/** One of the server's runs with its steps (what `Location` of a provision points at). */
export async function serverRun(
  req: DataRequest,
  scope: string | null,
  serverId: string,
  runId: string,
): Promise<ServerRunView> {
  if (!isId(serverId, 'srv')) throw notFound(serverId);
  const missing = () => new AppError('not_found', `no run ${runId.slice(0, 40)} of server ${serverId}`);
  if (!isId(runId, 'run')) throw missing();
  const run = await read(req, async (db) => {
    const r = await db.workflowRun.findFirst({ where: { id: runId, serverId }, include: { steps: true } });
    return r && { run: r, emails: await emailsOf(db, [r]) };
  });
  if (!run || (scope && run.run.region !== scope)) throw missing();
  return runView(run.run, run.emails);
}

// ---- provisioning -------------------------------------------------------------------------

/**
 * Starts a provision-server run: in one transaction on the primary, the server (locked) moves to
 * `provisioning`, the run and its first step's job are created and the audit event is written.
 * A server allocated to a cluster, or provisioning already, is a 409 conflict saying why.
 */
export async function provisionServer(
  req: DataRequest,
  actor: { userId: string },
  scope: string | null,
  id: string,
): Promise<{ server: ServerRowView; run_id: string; run: ServerRunView }> {
  if (!isId(id, 'srv')) throw notFound(id);
  const registry = await regionRegistry();
  return write(req, async (tx) => {
    const [locked] = await tx.$queryRaw<{ region: string; hostname: string; status: ServerStatus }[]>`
      SELECT region, hostname, status::text AS status FROM servers WHERE id = ${id} FOR UPDATE`;
    if (!locked || (scope && locked.region !== scope)) throw notFound(id);
    if (registry.get(locked.region)?.status === 'down') {
      throw new AppError('region_unavailable', `${locked.region} is down: its workers can't provision now`, {
        retryAfter: 60,
      });
    }
    const live = await tx.allocation.findFirst({
      where: { serverId: id, releasedAt: null },
      include: { cluster: { select: { name: true, organization: { select: { slug: true } } } } },
    });
    if (locked.status === 'allocated' || live) {
      const to = live?.cluster ? ` to cluster ${live.cluster.name} (${live.cluster.organization.slug})` : '';
      throw new AppError(
        'conflict',
        `${locked.hostname} is allocated${to}: only a free server can be provisioned; release it first`,
        { extra: { status: locked.status } },
      );
    }
    if (locked.status === 'provisioning') {
      const running = await tx.workflowRun.findFirst({
        where: { serverId: id, status: { in: ['queued', 'running'] } },
        orderBy: { createdAt: 'desc' },
        select: { id: true },
      });
      throw new AppError(
        'conflict',
        `${locked.hostname} is already provisioning${running ? ` (run ${running.id})` : ''}: wait for it to finish`,
        { extra: { status: locked.status, ...(running ? { run_id: running.id } : {}) } },
      );
    }
    await tx.server.update({ where: { id }, data: { status: 'provisioning' } });
    const runId = await startRun(tx, {
      workflow: provisionServerWorkflow,
      region: locked.region,
      serverId: id,
      input: { firmware: PROVISION_FIRMWARE, image: PROVISION_IMAGE, requested_by: actor.userId, from: locked.status },
    });
    await recordAudit(tx, {
      action: SERVER_PROVISION_AUDIT_ACTION,
      targetType: 'server',
      targetId: id,
      actorId: actor.userId,
      region: locked.region,
      requestId: req.requestId,
      metadata: { hostname: locked.hostname, from: locked.status, run_id: runId, image: PROVISION_IMAGE },
    });
    const run = await tx.workflowRun.findUniqueOrThrow({ where: { id: runId }, include: { steps: true } });
    return {
      server: rowView((await serverRow(tx, id))!),
      run_id: runId,
      run: runView(run, await emailsOf(tx, [run])),
    };
  });
}
