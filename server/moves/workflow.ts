// The steps of a workspace move (a `move-workspace` workflow run): what each does, and how a
// move that ends early or after its handover is put back or settled: docs/flows/moves.md.
import type { Tx } from '../db/access';
import { backgroundDb } from '../db/background';
import type { Db } from '../db/client';
import { runOne } from '../db/sql';
import { env } from '../env';
import { logger } from '../telemetry/logger';
import { offerSlug, acceptSlug, withdrawSlugOffer } from '../cell/workspaces';
import { recordAudit } from '../audit/audit';
import { StepFailure, type StepRun, type StepWork, type WorkflowDefinition } from '../workflows/definition';
import { moveForUpdate } from './moves.sql';
import { askDirectory, settleAfterHandover, type Settlement } from './settlement';
import { directoryRefusal, dropBundle, switchHome, type MoveInput } from './switch-home';
import { BundleInvalid, sharedPrimaryTransfer, type TableCheck, type WorkspaceTransfer } from './transfer';

export type { MoveInput } from './switch-home';

const input = (run: StepRun) => run.input as MoveInput;

/** The transfer in use: with today's shared primary, export + verify on the target's replica. */
const transfer: WorkspaceTransfer = sharedPrimaryTransfer;

/** Verify and handover are the target's work (its workers take them); everything else the source's. */
const atTarget = (run: StepRun) => input(run).to_region;

/** A cancel asked for before the handover: the run ends here, and the hooks undo the move. */
async function cancelRequested(db: Db, moveId: string): Promise<boolean> {
  const m = await db.workspaceMove.findUnique({
    where: { id: moveId },
    select: { cancelRequestedAt: true, handoverAt: true },
  });
  return !!m?.cancelRequestedAt && !m.handoverAt;
}

/** Runs of the workspace still in flight: wait a second more, or fail once past `limit` seconds read-only. */
export function drainWait(busyIds: string[], readOnlyAt: Date | null, now: number, limit: number) {
  const waited = (now - (readOnlyAt?.getTime() ?? now)) / 1000;
  const ids = busyIds.join(', ');
  if (waited > limit) {
    throw new StepFailure(`workflow runs still in flight after ${limit} s (${ids}): the workspace stays where it was`);
  }
  return { wait: 1, note: `waiting for runs in flight: ${ids}` };
}

/** Why the target's copy is refused (a table whose count or digest differs), or null when it matches. */
export function verifyMismatch(checks: TableCheck[], target: string): string | null {
  const bad = checks.filter((c) => !c.match);
  if (bad.length === 0) return null;
  const tables = bad.map((b) => `${b.name} (exported ${b.count}, found ${b.verified_count}, digests differ)`);
  return `${target} does not hold exactly the exported rows: ${tables.join('; ')}. Nothing moved`;
}

/** A move ended before its handover: its status, why it failed, and writable again if it was read-only. */
export function endedBeforeHandover(
  m: { readOnlyAt: Date | null; writableAt: Date | null },
  end: { outcome: 'failed' | 'cancelled'; reason: string; now: Date },
) {
  return {
    status: end.outcome,
    error: end.outcome === 'failed' ? end.reason : null,
    finishedAt: end.now,
    ...(m.readOnlyAt && !m.writableAt ? { writableAt: end.now } : {}),
  };
}

const noteStep = (moveId: string, step: string) => async (s: { tx: Tx }) => {
  await s.tx.workspaceMove.update({ where: { id: moveId }, data: { step } });
};

const MOVE_WORK = {
  offer: async ({ db, run }) => {
    const i = input(run);
    if (await cancelRequested(db, i.move_id)) return { cancel: true };
    try {
      await offerSlug(i.from_region, i.slug, i.to_region, i.move_id);
    } catch (e) {
      if (directoryRefusal(e)) throw new StepFailure(`the directory refused the offer (${e.code}): ${e.message}`);
      throw e;
    }
    return { effect: noteStep(i.move_id, 'offer') };
  },

  read_only: async ({ db, run }) => {
    const i = input(run);
    if (await cancelRequested(db, i.move_id)) return { cancel: true };
    return {
      effect: async ({ tx, now }) => {
        // The organization's row update waits for any cluster create holding it (accept.ts).
        await tx.organization.updateMany({ where: { id: run.orgId!, status: 'active' }, data: { status: 'moving' } });
        await tx.workspaceMove.updateMany({ where: { id: i.move_id, readOnlyAt: null }, data: { readOnlyAt: now } });
        await tx.workspaceMove.update({ where: { id: i.move_id }, data: { step: 'read_only' } });
      },
    };
  },

  drain_runs: async ({ db, run }) => {
    const i = input(run);
    if (await cancelRequested(db, i.move_id)) return { cancel: true };
    const busy = await db.workflowRun.findMany({
      where: { orgId: run.orgId, status: { in: ['queued', 'running'] }, id: { not: run.id } },
      select: { id: true },
      orderBy: { id: 'asc' },
      take: 5,
    });
    if (busy.length === 0) return { effect: noteStep(i.move_id, 'drain_runs') };
    const m = await db.workspaceMove.findUniqueOrThrow({ where: { id: i.move_id }, select: { readOnlyAt: true } });
    const ids = busy.map((b) => b.id);
    return drainWait(ids, m.readOnlyAt, Date.now(), env().MOVE_DRAIN_TIMEOUT_SECONDS);
  },

  export: async ({ db, run }) => {
    const i = input(run);
    if (await cancelRequested(db, i.move_id)) return { cancel: true };
    // The copy begins: the move is `copying` from here to the handover (`pending` before).
    await db.workspaceMove.updateMany({ where: { id: i.move_id, status: 'pending' }, data: { status: 'copying' } });
    const x = await transfer.exportWorkspace({ moveId: i.move_id, orgId: run.orgId! });
    return {
      effect: async ({ tx }) => {
        await tx.workspaceMove.update({
          where: { id: i.move_id },
          data: {
            step: 'export',
            snapshotLsn: x.snapshotLsn,
            snapshotAt: x.snapshotAt,
            tables: x.tables.map((t) => ({ ...t, verified_count: null, verified_digest: null, match: null })),
            exportId: x.exportId,
            bundleBytes: x.bytes,
            bundleChunks: x.chunks,
          },
        });
        // An earlier attempt that died half-way left chunks of its own.
        await tx.workspaceMoveChunk.deleteMany({ where: { moveId: i.move_id, exportId: { not: x.exportId } } });
      },
    };
  },

  verify: async ({ db, run }) => {
    const i = input(run);
    if (await cancelRequested(db, i.move_id)) return { cancel: true };
    const m = await db.workspaceMove.findUniqueOrThrow({ where: { id: i.move_id }, select: { exportId: true } });
    if (!m.exportId) throw new StepFailure('the export bundle is gone');
    let checks;
    try {
      checks = await transfer.importBundle({
        moveId: i.move_id,
        target: i.to_region,
        exportId: m.exportId,
        waitMs: env().MOVE_REPLICA_WAIT_SECONDS * 1000,
      });
    } catch (e) {
      if (e instanceof BundleInvalid) throw new StepFailure(e.message);
      throw e; // the target's replica is behind or down: the step retries
    }
    const mismatch = verifyMismatch(checks, i.to_region);
    if (mismatch) {
      await db.workspaceMove.update({ where: { id: i.move_id }, data: { tables: checks as object[] } });
      throw new StepFailure(mismatch);
    }
    return {
      effect: async ({ tx }) => {
        await tx.workspaceMove.update({
          where: { id: i.move_id },
          data: { step: 'verify', tables: checks as object[] },
        });
      },
    };
  },

  handover: async ({ db, run }) => {
    const i = input(run);
    // The point of no return, decided under the move's lock (a cancel takes the same lock).
    const go = await db.$transaction(async (tx) => {
      await runOne(tx, moveForUpdate, i.move_id);
      const m = await tx.workspaceMove.findUniqueOrThrow({ where: { id: i.move_id } });
      if (m.cancelRequestedAt && !m.handoverAt) return false;
      if (!m.handoverAt) {
        await tx.workspaceMove.update({
          where: { id: i.move_id },
          data: { handoverAt: new Date(), status: 'cutover', step: 'handover' },
        });
      }
      return true;
    });
    if (!go) return { cancel: true };
    try {
      await acceptSlug(i.to_region, i.slug, i.move_id);
    } catch (e) {
      // A refusal is final (the directory applied nothing): the run ends and is settled (docs/flows/moves.md,
      // "Ending a move"). Anything else: the directory may yet take it, so wait and try again.
      if (directoryRefusal(e)) throw new StepFailure(`the directory refused the handover (${e.code}): ${e.message}`);
      return { wait: 2, note: `the directory has not taken the handover yet (${(e as Error).message}); retrying` };
    }
    return { effect: ({ tx, now }) => switchHome(tx, run.orgId!, i, now) };
  },

  purge: async ({ run }) => {
    const i = input(run);
    return {
      effect: async ({ tx, now }) => {
        await dropBundle(tx, i.move_id);
        const m = await tx.workspaceMove.update({
          where: { id: i.move_id },
          data: { step: 'purge', status: 'completed', finishedAt: now },
        });
        await recordAudit(tx, {
          action: 'operator.move.complete',
          targetType: 'workspace_move',
          targetId: i.move_id,
          orgId: run.orgId,
          actorId: m.startedById,
          region: i.to_region,
          metadata: { slug: i.slug, from: i.from_region, to: i.to_region },
        });
      },
    };
  },
} satisfies Record<string, StepWork>;

/**
 * The bulk steps' expiry (MOVE_BULK_STEP_TIMEOUT_SECONDS, 15 minutes): a 1,000,000-row export
 * took up to 59 s on a busy 2-core machine, against the queue's 60 s. A worker that dies
 * mid-export is replaced after this long (the workspace stays read-only meanwhile):
 * docs/flows/moves.md. A getter: read when the step is enqueued, so the environment decides.
 */
const bulk = <T extends object>(step: T): T & { readonly timeoutSeconds: number } =>
  Object.defineProperty(step, 'timeoutSeconds', {
    get: () => env().MOVE_BULK_STEP_TIMEOUT_SECONDS,
    enumerable: true,
  }) as T & { readonly timeoutSeconds: number };

export const moveWorkspaceWorkflow: WorkflowDefinition = {
  kind: 'move-workspace',
  steps: [
    { name: 'offer', work: MOVE_WORK.offer },
    { name: 'read_only', work: MOVE_WORK.read_only },
    { name: 'drain_runs', work: MOVE_WORK.drain_runs },
    bulk({ name: 'export', work: MOVE_WORK.export }),
    bulk({ name: 'verify', work: MOVE_WORK.verify, region: atTarget }),
    // Past the point of no return: they retry through anything transient (docs/flows/moves.md).
    { name: 'handover', work: MOVE_WORK.handover, region: atTarget, retriesForever: true },
    bulk({ name: 'purge', work: MOVE_WORK.purge, retriesForever: true }),
  ],

  async ended(tx, run, { outcome, reason, now, prepared }) {
    const i = input(run);
    await runOne(tx, moveForUpdate, i.move_id);
    const m = await tx.workspaceMove.findUnique({ where: { id: i.move_id } });
    if (!m) return;
    if (m.handoverAt) {
      const asked = (prepared as { settlement: Settlement; why?: string } | undefined) ?? { settlement: 'unknown' };
      await settleAfterHandover(tx, run.orgId!, i, m, asked, reason, now);
      return;
    }
    // Back to read-write at the source; nothing else was changed.
    await tx.organization.updateMany({ where: { id: run.orgId!, status: 'moving' }, data: { status: 'active' } });
    await dropBundle(tx, i.move_id);
    await tx.workspaceMove.update({
      where: { id: i.move_id },
      data: endedBeforeHandover(m, { outcome, reason, now }),
    });
    await recordAudit(tx, {
      action: outcome === 'failed' ? 'operator.move.fail' : 'operator.move.cancelled',
      targetType: 'workspace_move',
      targetId: i.move_id,
      orgId: run.orgId,
      region: i.from_region,
      metadata: { slug: i.slug, from: i.from_region, to: i.to_region, reason },
    });
  },

  /**
   * Before the handover: the directory's offer is withdrawn before the move is marked ended, so
   * nobody sees an ended move with an offer still open (a few tries; a later offer by the owner
   * replaces it anyway). After it: the directory is asked where the workspace is (`ended` settles).
   */
  async beforeEnded(run) {
    const i = input(run);
    const m = await backgroundDb().workspaceMove.findUnique({ where: { id: i.move_id }, select: { handoverAt: true } });
    if (m?.handoverAt) return askDirectory(i);
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await withdrawSlugOffer(i.from_region, i.slug);
        return;
      } catch (e) {
        if (attempt === 3) {
          logger.warn(
            { err: (e as Error).message, move_id: i.move_id, slug: i.slug },
            'move: could not withdraw the directory offer; the next offer replaces it',
          );
        } else await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  },
};
