// A planned switchover, asked by an operator: the HA manager hands the primary to the synchronous
// standby (only it holds every acknowledged write). Audited before and after.
import { recordAudit } from '../audit/audit';
import { write } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { AppError, isAppError } from '../errors';
import { patroniCluster, patroniSwitchover, haConfigured, type PatroniMember } from './patroni';

export const SWITCHOVER_AUDIT_ACTION = 'operator.database.switchover' as const;
export const SWITCHOVER_DONE_AUDIT_ACTION = 'operator.database.switchover_done' as const;

const running = (m: PatroniMember) => ['running', 'streaming'].includes(m.state);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface SwitchoverOutcome {
  from: string;
  to: string;
  timeline: number | null;
  /** From the request to the HA manager until the new leader ran (ms). */
  took_ms: number;
}

export async function switchover(
  req: DataRequest,
  actorId: string,
  input: { candidate?: string; reason: string },
): Promise<SwitchoverOutcome> {
  if (!haConfigured()) {
    throw new AppError('conflict', 'no HA manager is configured (DATABASE_HA_API_URLS): nothing to switch over');
  }
  const { members } = await patroniCluster();
  const leader = members.find((m) => m.role === 'leader' && running(m));
  if (!leader?.api_url)
    throw new AppError('conflict', 'there is no running leader right now: a failover may be under way');
  const target = input.candidate
    ? members.find((m) => m.name === input.candidate)
    : members.find((m) => m.role === 'sync_standby' && running(m));
  if (input.candidate && !target) throw new AppError('not_found', `no database node named ${input.candidate}`);
  if (!target)
    throw new AppError('conflict', 'no synchronous standby is running: nothing holds every write to hand over to');
  if (target.tags?.nofailover) throw new AppError('conflict', `${target.name} is a region’s replica: it never leads`);
  if (target.role !== 'sync_standby' || !running(target)) {
    throw new AppError(
      'conflict',
      `${target.name} is not the running synchronous standby: it may lack acknowledged writes`,
    );
  }

  await write(req, (tx) =>
    recordAudit(tx, {
      action: SWITCHOVER_AUDIT_ACTION,
      targetType: 'database',
      targetId: leader.name,
      actorId,
      requestId: req.requestId,
      metadata: { from: leader.name, to: target.name, timeline: leader.timeline ?? null, reason: input.reason },
    }),
  );
  const started = performance.now();
  await patroniSwitchover(leader.api_url, leader.name, target.name);
  let now: PatroniMember | undefined;
  while (performance.now() - started < 60_000) {
    now = (await patroniCluster().catch(() => undefined))?.members.find((m) => m.role === 'leader' && running(m));
    // Done once the new leader runs on its new timeline (the HA manager reports it a moment later).
    if (now && now.name !== leader.name && (now.timeline ?? 0) > (leader.timeline ?? 0)) break;
    await sleep(200);
  }
  if (!now || now.name === leader.name) {
    throw new AppError('region_unavailable', 'the HA manager accepted the switchover but no new leader runs yet', {
      retryAfter: 5,
    });
  }
  const outcome = {
    from: leader.name,
    to: now.name,
    timeline: now.timeline ?? null,
    took_ms: Math.round(performance.now() - started),
  };
  // On the new primary, which the gateway finds as it reconnects: a few tries.
  for (let attempt = 1; ; attempt++) {
    try {
      await write(req, (tx) =>
        recordAudit(tx, {
          action: SWITCHOVER_DONE_AUDIT_ACTION,
          targetType: 'database',
          targetId: now.name,
          actorId,
          requestId: req.requestId,
          metadata: { ...outcome, reason: input.reason },
        }),
      );
      break;
    } catch (e) {
      if (attempt >= 20 || !(isAppError(e) && e.code === 'primary_unavailable')) throw e;
      await sleep(250);
    }
  }
  return outcome;
}
