// Workspace moves as operators start, follow and cancel them (Atlas and `npm run move`). A move
// is a row in `workspace_moves` plus its `move-workspace` workflow run (server/moves/workflow.ts);
// starting one checks the target and the organization in one transaction, so two operators
// racing for one workspace get one move and one 409 (the partial unique index decides).
import { recordAudit } from '../audit/audit';
import { homeRegionOf } from '../cell/workspaces';
import { read, write } from '../db/access';
import type { Db } from '../db/client';
import { readPrimary } from '../db/primary-reads';
import { runOne } from '../db/sql';
import { uniqueViolation } from '../db/errors';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { isId, newId } from '../ids';
import { regionRegistry } from '../region/registry';
import { WORKFLOWS } from '../workflows/definitions';
import { startRun } from '../workflows/runs';
import { moveForUpdate, orgBySlugForUpdate } from './moves.sql';
import type { MoveInput } from './workflow';

export const MOVE_START_AUDIT_ACTION = 'operator.move.start' as const;
export const MOVE_CANCEL_AUDIT_ACTION = 'operator.move.cancel' as const;
export const MOVE_STATUSES = ['pending', 'copying', 'cutover', 'completed', 'failed', 'cancelled'] as const;
const OPEN = ['pending', 'copying', 'cutover'] as const;

export interface MoveTableView {
  name: string;
  count: number;
  digest: string;
  verified_count: number | null;
  verified_digest: string | null;
  match: boolean | null;
}

export interface MoveStepView {
  name: string;
  status: string;
  attempts: number;
  error: string | null;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
}

export interface MoveView {
  id: string;
  slug: string;
  org_id: string;
  org_name: string;
  from_region: string;
  to_region: string;
  status: (typeof MOVE_STATUSES)[number];
  step: string | null;
  error: string | null;
  run_id: string | null;
  started_by: { id: string; email: string } | null;
  created_at: string;
  finished_at: string | null;
  /** The workspace's read-only window: from the switch to read-only until writable again (somewhere). */
  read_only: { started_at: string | null; ended_at: string | null; seconds: number | null };
  handover_at: string | null;
  cancel_requested_at: string | null;
  /** Open and not handed over yet. */
  cancellable: boolean;
  snapshot_lsn: string | null;
  snapshot_at: string | null;
  bundle_bytes: number | null;
  tables: MoveTableView[];
  steps: MoveStepView[];
}

const INCLUDE = {
  organization: { select: { slug: true, name: true } },
  startedBy: { select: { id: true, email: true } },
} as const;

type MoveRow = Awaited<ReturnType<typeof loadMove>>;

function loadMove(db: Db, id: string) {
  return db.workspaceMove.findUnique({
    where: { id },
    include: INCLUDE,
  });
}

async function stepsOf(db: Db, runId: string | null): Promise<MoveStepView[]> {
  if (!runId) return [];
  const steps = await db.workflowStep.findMany({ where: { runId }, orderBy: { position: 'asc' } });
  return steps.map((s) => ({
    name: s.name,
    status: s.status,
    attempts: s.attempts,
    error: s.error,
    started_at: s.startedAt?.toISOString() ?? null,
    finished_at: s.finishedAt?.toISOString() ?? null,
    duration_ms: s.startedAt && s.finishedAt ? s.finishedAt.getTime() - s.startedAt.getTime() : null,
  }));
}

function toView(m: NonNullable<MoveRow>, steps: MoveStepView[]): MoveView {
  const open = (OPEN as readonly string[]).includes(m.status);
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

const notFound = (id: string) => new AppError('not_found', `no workspace move ${id}`);

export async function getMove(req: DataRequest, id: string): Promise<MoveView> {
  if (!isId(id, 'mov')) throw notFound(id);
  return read(req, async (db) => {
    const m = await loadMove(db, id);
    if (!m) throw notFound(id);
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
        ...(f.org ? { OR: [{ orgId: f.org }, { organization: { slug: f.org } }] } : {}),
        // Newest first; the cursor is the last move's ID (IDs are random: ordered by time, then ID).
        ...(f.cursor && isId(f.cursor, 'mov') ? await after(db, f.cursor) : {}),
      },
      include: INCLUDE,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: f.limit + 1,
    });
    const page = rows.slice(0, f.limit);
    const steps = await db.workflowStep.findMany({
      where: { runId: { in: page.map((m) => m.runId).filter((r): r is string => !!r) } },
      orderBy: [{ runId: 'asc' }, { position: 'asc' }],
    });
    return {
      data: page.map((m) =>
        toView(
          m,
          steps
            .filter((s) => s.runId === m.runId)
            .map((s) => ({
              name: s.name,
              status: s.status,
              attempts: s.attempts,
              error: s.error,
              started_at: s.startedAt?.toISOString() ?? null,
              finished_at: s.finishedAt?.toISOString() ?? null,
              duration_ms: s.startedAt && s.finishedAt ? s.finishedAt.getTime() - s.startedAt.getTime() : null,
            })),
        ),
      ),
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

/** Starts moving `slug` to `to` (202 with the move and its run); see the file's header. */
export async function startMove(
  req: DataRequest,
  actor: { userId: string },
  input: { slug: string; to_region: string },
): Promise<MoveView> {
  const registry = await regionRegistry();
  const target = registry.get(input.to_region);
  if (!target) {
    throw new AppError('invalid_region', `"${input.to_region}" is not a known region`, {
      extra: { details: [{ path: ['to_region'], message: 'unknown region' }] },
    });
  }
  const id = newId('mov');
  try {
    await write(req, async (tx) => {
      const orgId = await runOne(tx, orgBySlugForUpdate, input.slug);
      if (!orgId) throw new AppError('not_found', `no workspace "${input.slug}"`);
      const o = await tx.organization.findUniqueOrThrow({
        where: { id: orgId },
        include: { allowedRegions: { select: { region: true } } },
      });
      const open = await tx.workspaceMove.findFirst({
        where: { orgId: o.id, status: { in: [...OPEN] } },
        select: { id: true },
      });
      if (open) {
        throw new AppError('conflict', `the workspace ${o.slug} is already moving (${open.id})`, {
          extra: { move_id: open.id },
        });
      }
      if (o.status !== 'active') throw new AppError('conflict', `the workspace ${o.slug} is ${o.status}`);
      const allowed = o.allowedRegions.map((a) => a.region);
      const from = homeRegionOf(
        { defaultRegion: o.defaultRegion, homeRegion: o.homeRegion, allowedRegions: allowed },
        registry.all().map((r) => r.code),
      );
      if (!from) throw new AppError('conflict', `the workspace ${o.slug} has no home region`);
      if (from === input.to_region) {
        throw new AppError('conflict', `the workspace ${o.slug} is in ${from} already`, { extra: { region: from } });
      }
      if (target.status !== 'active') {
        throw new AppError('conflict', `${target.code} is ${target.status}: it takes no workspaces now`, {
          extra: { region: target.code, region_status: target.status },
        });
      }
      if (!allowed.includes(input.to_region)) {
        throw new AppError(
          'region_not_allowed',
          `${input.to_region} is not one of ${o.slug}’s allowed regions (${allowed.join(', ')}): add it first in ` +
            `Atlas → Organizations → ${o.slug} (or PATCH /v1/atlas/organizations/${o.id} {"allowed_regions"})`,
          { extra: { region: input.to_region, allowed_regions: allowed } },
        );
      }
      await tx.workspaceMove.create({
        data: {
          id,
          orgId: o.id,
          fromRegion: from,
          toRegion: input.to_region,
          status: 'pending',
          startedById: actor.userId,
        },
      });
      const runInput: MoveInput = {
        move_id: id,
        slug: o.slug,
        from_region: from,
        to_region: input.to_region,
        requested_by: actor.userId,
      };
      const runId = await startRun(tx, {
        kind: 'move-workspace',
        region: from,
        orgId: o.id,
        input: runInput as unknown as Record<string, unknown>,
      });
      await tx.workspaceMove.update({ where: { id }, data: { runId } });
      await recordAudit(tx, {
        action: MOVE_START_AUDIT_ACTION,
        targetType: 'workspace_move',
        targetId: id,
        orgId: o.id,
        actorId: actor.userId,
        region: from,
        requestId: req.requestId,
        metadata: { slug: o.slug, from, to: input.to_region, run_id: runId, steps: WORKFLOWS['move-workspace'] },
      });
    });
  } catch (e) {
    if (uniqueViolation(e) === 'workspace_moves_open_key') {
      throw new AppError('conflict', `the workspace ${input.slug} is already moving`);
    }
    throw e;
  }
  return getMoveFromPrimary(id);
}

/** One move read from the primary (after a write; and for `npm run move`, which follows it). */
export async function getMoveFromPrimary(id: string): Promise<MoveView> {
  return readPrimary(async (db) => {
    const m = await loadMove(db, id);
    if (!m) throw notFound(id);
    return toView(m, await stepsOf(db, m.runId));
  });
}

/**
 * Asks an open move to stop before its handover (202): the run ends at its next step and puts
 * everything back (read-write at the source, the offer withdrawn). After the handover: 409, only a
 * move back.
 */
export async function cancelMove(req: DataRequest, actor: { userId: string }, id: string): Promise<MoveView> {
  if (!isId(id, 'mov')) throw notFound(id);
  await write(req, async (tx) => {
    const locked = await runOne(tx, moveForUpdate, id);
    if (!locked) throw notFound(id);
    const m = await tx.workspaceMove.findUniqueOrThrow({ where: { id }, include: INCLUDE });
    if (!(OPEN as readonly string[]).includes(m.status)) {
      throw new AppError('conflict', `the move is ${m.status}: there is nothing to cancel`, {
        extra: { status: m.status },
      });
    }
    if (m.handoverAt) {
      throw new AppError(
        'conflict',
        `${m.organization.slug} was handed over to ${m.toRegion}: it can no longer be cancelled, only followed by a move back`,
        { extra: { status: m.status } },
      );
    }
    if (m.cancelRequestedAt) return;
    await tx.workspaceMove.update({ where: { id }, data: { cancelRequestedAt: new Date() } });
    await recordAudit(tx, {
      action: MOVE_CANCEL_AUDIT_ACTION,
      targetType: 'workspace_move',
      targetId: id,
      orgId: m.orgId,
      actorId: actor.userId,
      region: m.fromRegion,
      requestId: req.requestId,
      metadata: { slug: m.organization.slug, from: m.fromRegion, to: m.toRegion, step: m.step },
    });
  });
  return getMoveFromPrimary(id);
}
