// Provisioning a server: an operator's request starts a provision-server run
// (./provision-workflow.ts) on a free server, audited in the same transaction.
import type { z } from 'zod';
import { recordAudit } from '../audit/audit';
import { write } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { runOne } from '../db/sql';
import { AppError } from '../errors';
import { isId } from '../ids';
import { regionRegistry } from '../region/registry';
import { startRun } from '../workflows/runs';
import { serverById, serverForUpdate } from './fleet.sql';
import { provisionServerWorkflow } from './provision-workflow';
import { emailsOf, runView, serverNotFound } from './server-runs';
import type { provisionAcceptedView } from './server-views';

export const SERVER_PROVISION_AUDIT_ACTION = 'operator.server.provision' as const;

/** What a provision-server run installs (recorded on the run and, once done, on the server). */
export const PROVISION_FIRMWARE = 'MX-BMC 4.2.1 / BIOS 2.18';
export const PROVISION_IMAGE = 'meridian-node-2026.11';

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
): Promise<z.infer<typeof provisionAcceptedView>> {
  if (!isId(id, 'srv')) throw serverNotFound(id);
  const registry = await regionRegistry();
  return write(req, async (tx) => {
    const locked = await runOne(tx, serverForUpdate, id);
    if (!locked || (scope && locked.region !== scope)) throw serverNotFound(id);
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
      server: (await runOne(tx, serverById, id))!,
      run_id: runId,
      run: runView(run, await emailsOf(tx, [run])),
    };
  });
}
