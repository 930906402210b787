// Settling a move whose run ended after its handover: the directory is asked where the workspace
// is, and the move completes there or is put back (docs/flows/moves.md, "Ending a move").
import type { Tx } from '../db/access';
import { backgroundDb } from '../db/background';
import { inSavepoint } from '../db/savepoint';
import { runOne } from '../db/sql';
import { logger } from '../telemetry/logger';
import { acceptSlug, withdrawSlugOffer } from '../cell/workspaces';
import { recordAudit } from '../audit/audit';
import { AppError } from '../errors';
import { moveForUpdate } from './moves.sql';
import { directoryRefusal, dropBundle, switchHome, type MoveInput } from './switch-home';

/**
 * Where the directory has a workspace whose move is past its handover: `accepted` (the target
 * has it, now or from before: the accept is idempotent), `refused` (it never will under this
 * move, so nothing moved: the source's offer is withdrawn), `unknown` (it could not be asked).
 */
export type Settlement = 'accepted' | 'refused' | 'unknown';

export async function askDirectory(i: MoveInput): Promise<{ settlement: Settlement; why?: string }> {
  let why = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await acceptSlug(i.to_region, i.slug, i.move_id);
      return { settlement: 'accepted' };
    } catch (e) {
      if (directoryRefusal(e)) {
        await withdrawSlugOffer(i.from_region, i.slug).catch((err: unknown) =>
          logger.warn({ err, move_id: i.move_id }, 'move: could not withdraw the refused offer'),
        );
        return { settlement: 'refused', why: `${e.code}: ${e.message}` };
      }
      why = (e as Error).message;
      if (attempt < 3) await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
  return { settlement: 'unknown', why };
}

/**
 * How a move past its handover ends: completed at the target (writable there already, or the
 * directory took it), put back at the source (refused), or left read-only (no answer).
 */
export function settledAs(writable: boolean, settlement: Settlement): 'completed' | 'put_back' | 'read_only' {
  if (writable || settlement === 'accepted') return 'completed';
  return settlement === 'refused' ? 'put_back' : 'read_only';
}

/** Only a failed move left read-only after its handover is settled by an operator. */
export function settleable(m: { status: string; handoverAt: Date | null; writableAt: Date | null }): boolean {
  return m.status === 'failed' && !!m.handoverAt && !m.writableAt;
}

/**
 * Ends a move past its handover whose run ended (docs/flows/moves.md), in the caller's
 * transaction holding the move's lock. Returns the move's status.
 */
export async function settleAfterHandover(
  tx: Tx,
  orgId: string,
  i: MoveInput,
  m: { writableAt: Date | null; startedById: string | null },
  asked: { settlement: Settlement; why?: string },
  reason: string,
  now: Date,
): Promise<'completed' | 'failed'> {
  await dropBundle(tx, i.move_id);
  let settlement = asked.settlement;
  let note = '';
  if (!m.writableAt && settlement === 'accepted') {
    // The switch is what the handover step would have committed; if it fails here too the
    // workspace is left as `unknown` says (its error noted), not half switched.
    try {
      await inSavepoint(tx, 'move_switch', () => switchHome(tx, orgId, i, now));
    } catch (e) {
      settlement = 'unknown';
      note = ` (the switch failed: ${(e as Error).message})`;
    }
  }
  const audit = (action: 'operator.move.complete' | 'operator.move.fail', metadata: Record<string, unknown>) =>
    recordAudit(tx, {
      action,
      targetType: 'workspace_move',
      targetId: i.move_id,
      orgId,
      actorId: m.startedById,
      region: action === 'operator.move.complete' ? i.to_region : i.from_region,
      metadata: { slug: i.slug, from: i.from_region, to: i.to_region, reason, ...metadata },
    });
  const end = settledAs(!!m.writableAt, settlement);
  if (end === 'completed') {
    await tx.workspaceMove.update({
      where: { id: i.move_id },
      data: {
        status: 'completed',
        error: `the run ended after the handover (${reason}); the workspace is writable in ${i.to_region}`,
        finishedAt: now,
      },
    });
    await audit('operator.move.complete', { settled: true });
    return 'completed';
  }
  if (end === 'put_back') {
    await tx.organization.updateMany({ where: { id: orgId, status: 'moving' }, data: { status: 'active' } });
    await tx.workspaceMove.update({
      where: { id: i.move_id },
      data: {
        status: 'failed',
        handoverAt: null,
        writableAt: now,
        finishedAt: now,
        error: `the directory refused the handover (${asked.why ?? reason}): nothing moved, ${i.slug} is writable in ${i.from_region} again`,
      },
    });
    await audit('operator.move.fail', { settled: 'refused' });
    return 'failed';
  }
  await tx.workspaceMove.update({
    where: { id: i.move_id },
    data: {
      status: 'failed',
      finishedAt: now,
      error:
        `after the handover: ${reason}. The directory could not be asked whether it took ${i.slug} ` +
        `(${asked.why ?? 'no answer'})${note}: it stays read-only. Once the directory answers, ` +
        `\`npm run move -- --settle ${i.move_id}\` completes the move or puts it back`,
    },
  });
  await audit('operator.move.fail', { settled: 'unknown' });
  return 'failed';
}

/**
 * `npm run move -- --settle <mov_id>`: an operator settles a move its run left read-only after
 * the handover (the directory could not be asked then).
 */
export async function settleMove(moveId: string): Promise<void> {
  const m = await backgroundDb().workspaceMove.findUnique({ where: { id: moveId } });
  if (!m) throw new AppError('not_found', `no workspace move ${moveId}`);
  const unsettled = () =>
    new AppError(
      'conflict',
      `the move is ${m.status}: only a failed move left read-only after its handover is settled`,
    );
  if (!settleable(m)) throw unsettled();
  const org = await backgroundDb().organization.findUniqueOrThrow({ where: { id: m.orgId }, select: { slug: true } });
  const i: MoveInput = { move_id: m.id, slug: org.slug, from_region: m.fromRegion, to_region: m.toRegion };
  const asked = await askDirectory(i);
  if (asked.settlement === 'unknown') {
    throw new AppError('directory_unavailable', `the directory could not be asked (${asked.why}): try again`, {
      retryAfter: 30,
    });
  }
  await backgroundDb().$transaction(async (tx) => {
    await runOne(tx, moveForUpdate, moveId);
    const locked = await tx.workspaceMove.findUniqueOrThrow({ where: { id: moveId } });
    if (!settleable(locked)) throw unsettled();
    await settleAfterHandover(tx, m.orgId, i, locked, asked, 'settled by an operator', new Date());
  });
}
