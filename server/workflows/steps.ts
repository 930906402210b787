// What each step does to the data once its (simulated) work is done. Every effect runs in the
// transaction that marks the step succeeded, so a step's effect happens exactly once even if
// its job runs twice. A StepFailure is permanent: the run fails with its message.
import type { Tx } from '../db/access';
import { templateById } from '../clusters/templates';
import { newId } from '../ids';

export class StepFailure extends Error {}

export interface StepScope {
  tx: Tx;
  run: {
    id: string;
    orgId: string | null;
    kind: string;
    region: string;
    clusterId: string | null;
    serverId: string | null;
    input: unknown;
  };
  now: Date;
}

type Effect = (s: StepScope) => Promise<void>;

const nothing: Effect = async () => {};

async function cluster(s: StepScope) {
  const c = s.run.clusterId ? await s.tx.cluster.findUnique({ where: { id: s.run.clusterId } }) : null;
  if (!c) throw new StepFailure('the cluster no longer exists');
  return c;
}

/** Picks `n` servers spread over the region's zones, or fails when there are not enough. */
async function allocate(s: StepScope): Promise<void> {
  const c = await cluster(s);
  const held = await s.tx.allocation.count({ where: { clusterId: c.id, releasedAt: null } });
  if (held > 0) return; // allocated by an earlier attempt that committed
  const gpu = templateById(c.template)?.gpu ?? false;
  // One allocation at a time per region: concurrent ones would each see the others' picks as
  // taken (SKIP LOCKED) or wait on them row by row; a region-wide lock is simpler and cheap.
  await s.tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`allocate:${c.region}`}, 0))`;
  const free = await s.tx.$queryRaw<{ id: string; zone: string }[]>`
    SELECT id, zone FROM servers
    WHERE region = ${c.region} AND status = 'available' AND (gpu_count > 0) = ${gpu}
    ORDER BY hostname
    FOR UPDATE`;
  if (free.length < c.nodeCount) {
    throw new StepFailure(
      `not enough available ${gpu ? 'GPU' : 'CPU'} servers in ${c.region}: ${c.nodeCount} needed, ${free.length} free`,
    );
  }
  // Round-robin over zones so a cluster survives losing one.
  const byZone = new Map<string, string[]>();
  for (const f of free) byZone.set(f.zone, [...(byZone.get(f.zone) ?? []), f.id]);
  const queues = [...byZone.values()];
  const chosen: string[] = [];
  for (let i = 0; chosen.length < c.nodeCount; i++) {
    const next = queues[i % queues.length]!.shift();
    if (next) chosen.push(next);
  }
  await s.tx.server.updateMany({ where: { id: { in: chosen } }, data: { status: 'allocated' } });
  await s.tx.allocation.createMany({
    data: chosen.map((serverId, i) => ({
      id: newId('alloc'),
      serverId,
      clusterId: c.id,
      role: i === 0 ? 'control_plane' : 'worker',
    })),
  });
  // No longer a promise: the capacity check (server/clusters/accept.ts) counts it as allocated.
  await s.tx.cluster.update({ where: { id: c.id }, data: { allocatedAt: s.now } });
}

/** Gives a cluster's servers back to the region. */
export async function releaseServers(tx: Tx, clusterId: string, now: Date): Promise<void> {
  const held = await tx.allocation.findMany({ where: { clusterId, releasedAt: null }, select: { serverId: true } });
  if (!held.length) return;
  await tx.allocation.updateMany({ where: { clusterId, releasedAt: null }, data: { releasedAt: now } });
  await tx.cluster.updateMany({ where: { id: clusterId }, data: { allocatedAt: null } });
  await tx.server.updateMany({
    where: { id: { in: held.map((h) => h.serverId) }, status: 'allocated' },
    data: { status: 'available' },
  });
}

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
  await s.tx.$executeRaw`
    UPDATE servers SET metadata = metadata || ${JSON.stringify(facts)}::jsonb, updated_at = ${s.now}
    WHERE id = ${srv.id}`;
}

const provisionInput = (s: StepScope) => (s.run.input ?? {}) as { firmware?: string; image?: string };

export const EFFECTS: Record<string, Effect> = {
  validate: async (s) => {
    const c = await cluster(s);
    if (!templateById(c.template)) throw new StepFailure(`unknown template ${c.template}`);
  },
  allocate_servers: allocate,
  bootstrap_control_plane: nothing,
  join_workers: nothing,
  ready: async (s) => {
    const c = await cluster(s);
    await s.tx.cluster.update({ where: { id: c.id }, data: { status: 'ready', readyAt: s.now, statusReason: null } });
  },
  drain_workloads: nothing,
  release_servers: async (s) => releaseServers(s.tx, (await cluster(s)).id, s.now),
  destroy_control_plane: nothing,
  power_on: async (s) => void (await provisioningServer(s)),
  update_firmware: (s) => noteOnServer(s, { firmware: provisionInput(s).firmware ?? null }),
  install_image: (s) => noteOnServer(s, { os_image: provisionInput(s).image ?? null }),
  burn_in: async (s) => void (await provisioningServer(s)),
  // Back in the pool: free for the next cluster's allocate_servers.
  join_pool: async (s) => {
    await noteOnServer(s, { provisioned_at: s.now.toISOString(), provisioned_by_run: s.run.id });
    await s.tx.server.update({ where: { id: s.run.serverId! }, data: { status: 'available' } });
  },
  deleted: async (s) => {
    const c = await cluster(s);
    await s.tx.cluster.update({ where: { id: c.id }, data: { status: 'deleted', deletedAt: s.now } });
  },
};
