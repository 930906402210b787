// What the end of a cluster's run does to the cluster and tells its organization.
import type { Tx } from '../db/access';
import { notify } from '../notifications/repository';
import type { RunEnd, StepRun } from '../workflows/definition';
import { emitWebhook } from '../webhooks/events';
import { releaseServers } from './allocation';
import { toClusterView } from './repository';

/** A create- or delete-cluster run failed (`ended`); a failed create gives its servers back. */
export async function clusterRunFailed(tx: Tx, run: StepRun, end: RunEnd): Promise<void> {
  if (end.outcome === 'cancelled') return;
  const { reason, now } = end;
  if (run.clusterId) {
    if (run.kind === 'create-cluster') await releaseServers(tx, run.clusterId, now);
    await tx.cluster.updateMany({
      where: { id: run.clusterId, status: { not: 'deleted' } },
      data: { status: 'failed', statusReason: run.kind === 'delete-cluster' ? `delete failed: ${reason}` : reason },
    });
  }
  await announce(tx, run, 'failed', reason);
}

/** A create- or delete-cluster run succeeded (`succeeded`). */
export async function clusterRunSucceeded(tx: Tx, run: StepRun): Promise<void> {
  await announce(tx, run, 'succeeded');
}

async function announce(tx: Tx, run: StepRun, outcome: 'succeeded' | 'failed', reason?: string): Promise<void> {
  if (!run.clusterId || !run.orgId) return; // only clusters' runs notify their organization
  const c = await tx.cluster.findUnique({ where: { id: run.clusterId }, select: { name: true, region: true } });
  if (!c) return;
  const requestedBy = (run.input as { requested_by?: unknown } | null)?.requested_by;
  const requester =
    typeof requestedBy === 'string'
      ? await tx.user.findUnique({ where: { id: requestedBy }, select: { id: true } })
      : null;
  const userId = requester?.id ?? null; // the person who asked, else the whole organization
  const creating = run.kind === 'create-cluster';
  const [kind, title, body] =
    outcome === 'succeeded'
      ? creating
        ? ['cluster.ready', `Cluster ${c.name} is ready`, `${c.name} in ${c.region} finished provisioning.`]
        : [
            'cluster.deleted',
            `Cluster ${c.name} was deleted`,
            `${c.name} in ${c.region} is gone; its servers are free.`,
          ]
      : creating
        ? ['cluster.failed', `Cluster ${c.name} failed`, `${c.name} in ${c.region} could not be created: ${reason}`]
        : ['cluster.delete_failed', `Deleting ${c.name} failed`, `${c.name} in ${c.region}: ${reason}`];
  await notify(tx, { orgId: run.orgId, userId, kind, title, body, resourceId: run.clusterId });
  // The organization's webhooks hear it in this same transaction (a failed delete has no event).
  if (kind === 'cluster.ready' || kind === 'cluster.failed' || kind === 'cluster.deleted') {
    const row = await tx.cluster.findUniqueOrThrow({ where: { id: run.clusterId } });
    await emitWebhook(tx, run.orgId, kind, toClusterView(row));
  }
}
