// Workspace moves as operators start and cancel them (Atlas and `npm run move`).
// docs/flows/moves.md
import { recordAudit } from '../audit/audit';
import { homeRegionOf } from '../cell/workspaces';
import { write } from '../db/access';
import { runOne } from '../db/sql';
import { uniqueViolation } from '../db/errors';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { isId, newId } from '../ids';
import { regionRegistry } from '../region/registry';
import { stepNames } from '../workflows/definition';
import { startRun } from '../workflows/runs';
import { getMoveFromPrimary, MOVE_INCLUDE, moveNotFound, OPEN_MOVE_STATUSES, type MoveView } from './move-views';
import { moveForUpdate, orgBySlugForUpdate } from './moves.sql';
import { moveWorkspaceWorkflow, type MoveInput } from './workflow';

export const MOVE_START_AUDIT_ACTION = 'operator.move.start' as const;
export const MOVE_CANCEL_AUDIT_ACTION = 'operator.move.cancel' as const;
// Following moves is move-views.ts; its callers (Atlas, `npm run move`) find it here too.
export { getMove, getMoveFromPrimary, listMoves, MOVE_STATUSES, type MoveView } from './move-views';

/**
 * Starts moving `slug` to `to` (202 with the move and its run). The target and the organization
 * are checked in one transaction, so two operators racing for one workspace get one move and one
 * 409 (the partial unique index decides).
 */
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
        where: { orgId: o.id, status: { in: [...OPEN_MOVE_STATUSES] } },
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
        workflow: moveWorkspaceWorkflow,
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
        metadata: { slug: o.slug, from, to: input.to_region, run_id: runId, steps: stepNames(moveWorkspaceWorkflow) },
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

/**
 * Asks an open move to stop before its handover (202): the run ends at its next step and puts
 * everything back (read-write at the source, the offer withdrawn). After the handover: 409, only a
 * move back.
 */
export async function cancelMove(req: DataRequest, actor: { userId: string }, id: string): Promise<MoveView> {
  if (!isId(id, 'mov')) throw moveNotFound(id);
  await write(req, async (tx) => {
    const locked = await runOne(tx, moveForUpdate, id);
    if (!locked) throw moveNotFound(id);
    const m = await tx.workspaceMove.findUniqueOrThrow({ where: { id }, include: MOVE_INCLUDE });
    if (!(OPEN_MOVE_STATUSES as readonly string[]).includes(m.status)) {
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
