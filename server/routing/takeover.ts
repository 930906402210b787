// Taking the routing policy store over: a new epoch, after which every gateway refuses change
// events from older epochs (a split-brain publisher's late NOTIFY, say).
import { recordAudit } from '../audit/audit';
import { write } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { execute, runOne } from '../db/sql';
import { ALL_POLICIES, lockStore, notifyPolicyChange, takeOverStore } from './policy.sql';

export const POLICY_TAKEOVER_AUDIT_ACTION = 'operator.policy.takeover' as const;

/**
 * Takes the store over: a new epoch, the sequence starting over. Nothing is republished; the
 * NOTIFY makes every gateway reload everything and, from then on, refuse older epochs.
 */
export async function takeoverPolicyStore(req: DataRequest, actorId: string): Promise<{ epoch: number }> {
  return write(req, async (tx) => {
    const s = await runOne(tx, lockStore);
    if (!s) throw new Error('the routing policy store has no row');
    const epoch = s.epoch + 1;
    await execute(tx, takeOverStore, epoch, actorId);
    await recordAudit(tx, {
      action: POLICY_TAKEOVER_AUDIT_ACTION,
      targetType: 'routing_policy_store',
      targetId: 'store',
      actorId,
      requestId: req.requestId,
      metadata: { from_epoch: s.epoch, last_sequence: s.sequence, epoch },
    });
    await execute(tx, notifyPolicyChange, `${epoch}.0 ${ALL_POLICIES}`);
    return { epoch };
  });
}
