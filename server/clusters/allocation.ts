// A cluster's servers as its runs take them (allocate_servers) and give them back (a delete, or
// a create that failed); and the cluster a run works on.
import type { Tx } from '../db/access';
import { execute, run } from '../db/sql';
import { newId } from '../ids';
import { StepFailure, type StepScope } from '../workflows/definition';
import { freeServersForUpdate, lockRegionAllocation } from './clusters.sql';
import { templateById } from './templates';

/** The cluster a create- or delete-cluster run works on; a StepFailure once it is gone. */
export async function runCluster(s: StepScope) {
  const c = s.run.clusterId ? await s.tx.cluster.findUnique({ where: { id: s.run.clusterId } }) : null;
  if (!c) throw new StepFailure('the cluster no longer exists');
  return c;
}

/** Picks `n` servers spread over the region's zones, or fails when there are not enough. */
export async function allocateServers(s: StepScope): Promise<void> {
  const c = await runCluster(s);
  const held = await s.tx.allocation.count({ where: { clusterId: c.id, releasedAt: null } });
  if (held > 0) return; // allocated by an earlier attempt that committed
  const gpu = templateById(c.template)?.gpu ?? false;
  // One allocation at a time per region: concurrent ones would each see the others' picks as
  // taken (SKIP LOCKED) or wait on them row by row; a region-wide lock is simpler and cheap.
  await execute(s.tx, lockRegionAllocation, c.region);
  const free = await run(s.tx, freeServersForUpdate, c.region, gpu);
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
  // No longer a promise: the capacity check (server/clusters/accept.sql.ts) counts it as allocated.
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
