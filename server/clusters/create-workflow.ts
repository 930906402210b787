// The create-cluster workflow: validate, place servers over the zones, bootstrap (simulated),
// `ready`. docs/flows/cluster-create.md#running-it-workflows
import type { WorkflowDefinition } from '../workflows/definition';
import { StepFailure } from '../workflows/definition';
import { allocateServers, runCluster } from './allocation';
import { clusterRunFailed, clusterRunSucceeded } from './run-outcome';
import { templateById } from './templates';

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
    await tx.cluster.updateMany({ where: { id: run.clusterId, status: 'pending' }, data: { status: 'provisioning' } });
  },
  succeeded: (tx, run) => clusterRunSucceeded(tx, run),
  ended: clusterRunFailed,
};
