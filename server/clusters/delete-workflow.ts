// The delete-cluster workflow: drain, destroy (simulated), give the servers back, `deleted`.
// docs/flows/cluster-create.md#running-it-workflows
import type { WorkflowDefinition } from '../workflows/definition';
import { releaseServers, runCluster } from './allocation';
import { clusterRunFailed, clusterRunSucceeded } from './run-outcome';

export const deleteClusterWorkflow: WorkflowDefinition = {
  kind: 'delete-cluster',
  steps: [
    { name: 'drain_workloads' },
    { name: 'release_servers', effect: async (s) => releaseServers(s.tx, (await runCluster(s)).id, s.now) },
    { name: 'destroy_control_plane' },
    {
      name: 'deleted',
      effect: async (s) => {
        const c = await runCluster(s);
        await s.tx.cluster.update({ where: { id: c.id }, data: { status: 'deleted', deletedAt: s.now } });
      },
    },
  ],
  succeeded: (tx, run) => clusterRunSucceeded(tx, run),
  ended: clusterRunFailed,
};
