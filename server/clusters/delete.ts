// Deleting a cluster: a ready or failed cluster moves to `deleting` and a delete-cluster run
// releases its servers in one idempotent, audited transaction; other states are a 409 saying why.
import { actorMetadata } from '../audit/actor';
import { recordAudit } from '../audit/audit';
import { idempotentWrite } from '../db/idempotency';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { startRun } from '../workflows/runs';
import type { ClusterRequester } from './create';
import { deleteClusterWorkflow } from './delete-workflow';
import { liveCluster, markDeleting, toClusterView } from './repository';

export async function deleteCluster(req: DataRequest, who: Omit<ClusterRequester, 'region'>, id: string) {
  const orgId = who.org.id;
  return idempotentWrite(req, { op: 'clusters.delete', id }, async (tx) => {
    const cluster = await markDeleting(tx, orgId, id);
    if (!cluster) {
      const now = await liveCluster(tx, orgId, id);
      if (!now) throw new AppError('not_found', `no cluster ${id}`);
      throw new AppError(
        'conflict',
        now.status === 'deleting'
          ? `${id} is being deleted already`
          : `${id} is ${now.status}: delete it once it is ready or failed`,
        { extra: { status: now.status } },
      );
    }
    const runId = await startRun(tx, {
      orgId,
      workflow: deleteClusterWorkflow,
      region: cluster.region,
      clusterId: cluster.id,
      input: { requested_by: who.userId },
    });
    await recordAudit(tx, {
      action: 'cluster.delete',
      targetType: 'cluster',
      targetId: cluster.id,
      orgId,
      actorId: who.userId,
      region: cluster.region,
      requestId: req.requestId,
      metadata: { name: cluster.name, run_id: runId, ...actorMetadata(who) },
    });
    return { status: 202, body: { cluster: toClusterView(cluster), run_id: runId } };
  });
}
