// The provision-server workflow (simulated power on, firmware, image, burn-in): the server joins
// its region's pool `available`, or waits in `maintenance` for an operator when a step fails.
import type { RunEnd, StepRun, StepScope, WorkflowDefinition } from '../workflows/definition';
import { StepFailure } from '../workflows/definition';
import type { Tx } from '../db/access';
import { execute } from '../db/sql';
import { mergeServerMetadata } from './fleet.sql';

/** The server a provision-server run works on; it must still be provisioning (nobody took it). */
async function provisioningServer(s: StepScope) {
  const srv = s.run.serverId ? await s.tx.server.findUnique({ where: { id: s.run.serverId } }) : null;
  if (!srv) throw new StepFailure('the server no longer exists');
  if (srv.status !== 'provisioning') throw new StepFailure(`the server left provisioning (it is ${srv.status})`);
  return srv;
}

/** Merges facts the provisioning established into the server's metadata (firmware, image…). */
async function noteOnServer(s: StepScope, facts: Record<string, unknown>): Promise<void> {
  const srv = await provisioningServer(s);
  await execute(s.tx, mergeServerMetadata, JSON.stringify(facts), s.now, srv.id);
}

const provisionInput = (s: StepScope) => (s.run.input ?? {}) as { firmware?: string; image?: string };

export const provisionServerWorkflow: WorkflowDefinition = {
  kind: 'provision-server',
  steps: [
    { name: 'power_on', effect: async (s) => void (await provisioningServer(s)) },
    { name: 'update_firmware', effect: (s) => noteOnServer(s, { firmware: provisionInput(s).firmware ?? null }) },
    { name: 'install_image', effect: (s) => noteOnServer(s, { os_image: provisionInput(s).image ?? null }) },
    { name: 'burn_in', effect: async (s) => void (await provisioningServer(s)) },
    {
      // Back in the pool: free for the next cluster's allocate_servers.
      name: 'join_pool',
      effect: async (s) => {
        await noteOnServer(s, { provisioned_at: s.now.toISOString(), provisioned_by_run: s.run.id });
        await s.tx.server.update({ where: { id: s.run.serverId! }, data: { status: 'available' } });
      },
    },
  ],
  async ended(tx: Tx, run: StepRun, end: RunEnd) {
    if (end.outcome === 'cancelled' || !run.serverId) return;
    // Half-provisioned hardware is not safe to hand out: it waits for an operator.
    await tx.server.updateMany({
      where: { id: run.serverId, status: 'provisioning' },
      data: { status: 'maintenance' },
    });
  },
};
