// Workspace moves as operators follow them: the views, one move (from the request's database or
// the primary) and the list. Starting and cancelling them is moves.ts.
import { z } from 'zod';
import { read } from '../db/access';
import type { Db } from '../db/client';
import { readPrimary } from '../db/primary-reads';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { isId } from '../ids';
import { runStepView } from '../workflows/repository';

export const MOVE_STATUSES = ['pending', 'copying', 'cutover', 'completed', 'failed', 'cancelled'] as const;
export const OPEN_MOVE_STATUSES = ['pending', 'copying', 'cutover'] as const;

export const moveView = z.object({
  id: z.string(),
  slug: z.string(),
  org_id: z.string(),
  org_name: z.string(),
  from_region: z.string(),
  to_region: z.string(),
  status: z.enum(MOVE_STATUSES),
  step: z.string().nullable(),
  error: z.string().nullable(),
  run_id: z.string().nullable(),
  started_by: z.object({ id: z.string(), email: z.string() }).nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  read_only: z
    .object({ started_at: z.string().nullable(), ended_at: z.string().nullable(), seconds: z.number().nullable() })
    .describe('The read-only window: from the switch to read-only until the workspace is writable again'),
  handover_at: z.string().nullable().describe('The point of no return (the target accepted): no cancel after it'),
  cancel_requested_at: z.string().nullable(),
  /** Open and not handed over yet. */
  cancellable: z.boolean(),
  snapshot_lsn: z.string().nullable(),
  snapshot_at: z.string().nullable(),
  bundle_bytes: z.number().nullable(),
  tables: z.array(
    z.object({
      name: z.string(),
      count: z.number(),
      digest: z.string(),
      verified_count: z.number().nullable(),
      verified_digest: z.string().nullable(),
      match: z.boolean().nullable(),
    }),
  ),
  // A run's step without its position (the list is in order), with how long it took.
  steps: z.array(runStepView.omit({ position: true }).extend({ duration_ms: z.number().nullable() })),
});
export type MoveView = z.infer<typeof moveView>;
type MoveTableView = MoveView['tables'][number];
type MoveStepView = MoveView['steps'][number];

export const MOVE_INCLUDE = {
  organization: { select: { slug: true, name: true } },
  startedBy: { select: { id: true, email: true } },
} as const;

type MoveRow = Awaited<ReturnType<typeof loadMove>>;

function loadMove(db: Db, id: string) {
  return db.workspaceMove.findUnique({
    where: { id },
    include: MOVE_INCLUDE,
  });
}

async function stepsOf(db: Db, runId: string | null): Promise<MoveStepView[]> {
  if (!runId) return [];
  const steps = await db.workflowStep.findMany({ where: { runId }, orderBy: { position: 'asc' } });
  return steps.map(toStepView);
}

type StepRow = Awaited<ReturnType<Db['workflowStep']['findMany']>>[number];

function toStepView(s: StepRow): MoveStepView {
  return {
    name: s.name,
    status: s.status,
    attempts: s.attempts,
    error: s.error,
    started_at: s.startedAt?.toISOString() ?? null,
    finished_at: s.finishedAt?.toISOString() ?? null,
    duration_ms: s.startedAt && s.finishedAt ? s.finishedAt.getTime() - s.startedAt.getTime() : null,
  };
}

function toView(m: NonNullable<MoveRow>, steps: MoveStepView[]): MoveView {
  const open = (OPEN_MOVE_STATUSES as readonly string[]).includes(m.status);
  const ro = m.readOnlyAt;
  const rw = m.writableAt;
  return {
    id: m.id,
    slug: m.organization.slug,
    org_id: m.orgId,
    org_name: m.organization.name,
    from_region: m.fromRegion,
    to_region: m.toRegion,
    status: m.status,
    step: m.step,
    error: m.error,
    run_id: m.runId,
    started_by: m.startedBy ? { id: m.startedBy.id, email: m.startedBy.email } : null,
    created_at: m.createdAt.toISOString(),
    finished_at: m.finishedAt?.toISOString() ?? null,
    read_only: {
      started_at: ro?.toISOString() ?? null,
      ended_at: rw?.toISOString() ?? null,
      seconds: ro && rw ? (rw.getTime() - ro.getTime()) / 1000 : null,
    },
    handover_at: m.handoverAt?.toISOString() ?? null,
    cancel_requested_at: m.cancelRequestedAt?.toISOString() ?? null,
    cancellable: open && !m.handoverAt && !m.cancelRequestedAt,
    snapshot_lsn: m.snapshotLsn,
    snapshot_at: m.snapshotAt?.toISOString() ?? null,
    bundle_bytes: m.bundleBytes,
    tables: (Array.isArray(m.tables) ? m.tables : []) as unknown as MoveTableView[],
    steps,
  };
}

export const moveNotFound = (id: string) => new AppError('not_found', `no workspace move ${id}`);

export async function getMove(req: DataRequest, id: string): Promise<MoveView> {
  if (!isId(id, 'mov')) throw moveNotFound(id);
  return read(req, async (db) => {
    const m = await loadMove(db, id);
    if (!m) throw moveNotFound(id);
    return toView(m, await stepsOf(db, m.runId));
  });
}

export async function listMoves(
  req: DataRequest,
  f: { status?: (typeof MOVE_STATUSES)[number]; org?: string; limit: number; cursor?: string },
): Promise<{ data: MoveView[]; next_cursor: string | null }> {
  return read(req, async (db) => {
    const rows = await db.workspaceMove.findMany({
      where: {
        ...(f.status ? { status: f.status } : {}),
        // The organization by ID or slug, found first: an OR across the join would scan every move.
        ...(f.org ? { organization: { OR: [{ id: f.org }, { slug: f.org }] } } : {}),
        // Newest first; the cursor is the last move's ID (IDs are random: ordered by time, then ID).
        ...(f.cursor && isId(f.cursor, 'mov') ? await after(db, f.cursor) : {}),
      },
      include: MOVE_INCLUDE,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: f.limit + 1,
    });
    const page = rows.slice(0, f.limit);
    const steps = await db.workflowStep.findMany({
      where: { runId: { in: page.map((m) => m.runId).filter((r): r is string => !!r) } },
      orderBy: [{ runId: 'asc' }, { position: 'asc' }],
    });
    return {
      data: page.map((m) => toView(m, steps.filter((s) => s.runId === m.runId).map(toStepView))),
      next_cursor: rows.length > f.limit ? (page.at(-1)?.id ?? null) : null,
    };
  });
}

async function after(db: Db, cursor: string) {
  const last = await db.workspaceMove.findUnique({ where: { id: cursor }, select: { createdAt: true } });
  if (!last) throw new AppError('invalid_request', 'the cursor names no move');
  return {
    AND: [
      {
        OR: [{ createdAt: { lt: last.createdAt } }, { createdAt: last.createdAt, id: { lt: cursor } }],
      },
    ],
  };
}

/** One move read from the primary (after a write; and for `npm run move`, which follows it). */
export async function getMoveFromPrimary(id: string): Promise<MoveView> {
  return readPrimary(async (db) => {
    const m = await loadMove(db, id);
    if (!m) throw moveNotFound(id);
    return toView(m, await stepsOf(db, m.runId));
  });
}
