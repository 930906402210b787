// The routing policy a workspace move's handover publishes, with the new primary region, in the
// handover's own transaction (docs/flows/routing-policy.md, "The policy and its store").
import type { Tx } from '../db/access';
import { AppError } from '../errors';
import { logger } from '../telemetry/logger';
import type { PolicyContent } from './policy-content';
import { builtInDefault } from './policy';
import { publishInTx } from './publish';

export async function publishMoveHandover(
  tx: Tx,
  orgId: string,
  move: { move_id: string; from_region: string; to_region: string },
): Promise<void> {
  const attempt = (fallbackToFixed: boolean) =>
    publishInTx(
      tx,
      { requestId: null, actorId: null },
      orgId,
      ({ current, org }) => {
        const base: PolicyContent = current?.content ?? builtInDefault();
        const allowed = [...new Set([...(org?.allowed ?? base.allowed_regions), move.to_region])];
        let standby = base.standby_region === move.to_region ? move.from_region : base.standby_region;
        if (standby && !allowed.includes(standby)) standby = null;
        const mode =
          fallbackToFixed || (base.failover_mode === 'active_standby' && !standby) ? 'fixed' : base.failover_mode;
        return {
          content: {
            ...base,
            primary_region: move.to_region,
            allowed_regions: allowed,
            failover_mode: mode,
            standby_region: standby,
          },
          defaultRegion: org?.default_region === move.from_region ? move.to_region : undefined,
        };
      },
      {
        ifUnchanged: 'skip',
        homeRegion: move.to_region,
        reason: `workspace move ${move.move_id}: the new home region`,
      },
    );
  try {
    await attempt(false);
  } catch (e) {
    // Validation runs before any write of the publish: the transaction is still usable.
    if (!(e instanceof AppError && e.code === 'invalid_request')) throw e;
    try {
      await attempt(true);
    } catch (e2) {
      if (!(e2 instanceof AppError && e2.code === 'invalid_request')) throw e2;
      logger.warn(
        { org_id: orgId, move_id: move.move_id, details: e2.extra.details },
        'the move’s routing policy version was refused: the policy keeps its old primary region',
      );
    }
  }
}
