// The create-cluster workflow: validate, place servers over the zones, bootstrap (simulated),
// `ready`. docs/flows/cluster-create.md#running-it-workflows
import type { WorkflowDefinition } from '../workflows/definition';
import { StepFailure } from '../workflows/definition';
import { allocateServers, runCluster } from './allocation';
import { clusterRunFailed, clusterRunSucceeded } from './run-outcome';
import { templateById } from './templates';
import { toClusterView } from './repository';
import { emitWebhook } from '../webhooks/events';

export const createClusterWorkflow: WorkflowDefinition = {
  kind: 'create-cluster',
  steps: [
    {
      name: 'validate',
      effect: async (s) => {
        const c = await runCluster(s);
        if (!templateById(c.template)) throw new StepFailure(`unknown template ${c.template}`);
      },
    },
    { name: 'allocate_servers', effect: allocateServers },
    { name: 'bootstrap_control_plane' },
    { name: 'join_workers' },
    {
      name: 'ready',
      effect: async (s) => {
        const c = await runCluster(s);
        await s.tx.cluster.update({
          where: { id: c.id },
          data: { status: 'ready', readyAt: s.now, statusReason: null },
        });
      },
    },
  ],
  async starting(tx, run) {
    if (!run.clusterId) return;
    const n = await tx.cluster.updateMany({
      where: { id: run.clusterId, status: 'pending' },
      data: { status: 'provisioning' },
    });
    // cluster.created: the create itself is one statement on the hot path (accept.sql.ts), so its
    // event goes out with the run's first step, once (only one attempt moves it off pending).
    if (n.count === 1 && run.orgId) {
      const row = await tx.cluster.findUniqueOrThrow({ where: { id: run.clusterId } });
      await emitWebhook(tx, run.orgId, 'cluster.created', toClusterView(row));
    }
  },
  succeeded: (tx, run) => clusterRunSucceeded(tx, run),
  ended: clusterRunFailed,
};
