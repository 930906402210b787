// The demo's clusters in varied states, each with its workflow run, its control-plane server when
// ready, and a notification to the organization's admin when it finished.
import type { Tx } from '../../server/db/access';
import { newId } from '../../server/ids';
import { stepsOf } from '../../server/worker/registry';
import { enqueueStep } from '../../server/workflows/queue';
import type { DemoServer } from './fleet';
import { USERS, type DemoTenants } from './people';

const TEMPLATES = ['k8s-standard', 'k8s-gpu', 'k8s-small'];
const CLUSTER_STATES = ['ready', 'ready', 'ready', 'provisioning', 'pending', 'failed', 'deleting'] as const;

/** A small deterministic PRNG so the demo looks the same on every machine. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function seedClusters(
  tx: Tx,
  mothership: string,
  globexRegions: string[],
  { orgBySlug, userIds, projectIds }: DemoTenants,
  servers: DemoServer[],
): Promise<void> {
  const random = rng(20261130);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const now = Date.now();
  const plans: { org: 'acme' | 'globex'; region: string }[] = [];
  for (let i = 0; i < 12; i++) plans.push({ org: 'acme', region: mothership });
  for (let i = 0; i < 24; i++) plans.push({ org: 'globex', region: globexRegions[i % globexRegions.length]! });
  let n = 0;
  for (const plan of plans) {
    n++;
    const status = CLUSTER_STATES[n % CLUSTER_STATES.length]!;
    const org = orgBySlug[plan.org];
    const createdAt = new Date(now - (plans.length - n) * 3_600_000 - Math.floor(random() * 600_000));
    const cluster = await tx.cluster.create({
      data: {
        id: newId('cls'),
        orgId: org.id,
        projectId: pick(projectIds[plan.org]),
        region: plan.region,
        name: `${plan.org === 'acme' ? pick(['api', 'web', 'etl', 'ml']) : pick(['core', 'edge', 'batch', 'search'])}-${String(n).padStart(2, '0')}`,
        template: pick(TEMPLATES),
        // Clusters still being provisioned ask for few nodes, so the demo's regions keep room.
        nodeCount: status === 'pending' || status === 'provisioning' ? pick([1, 2]) : pick([3, 3, 5, 7]),
        version: pick(['1.33.2', '1.34.1']),
        status,
        statusReason: status === 'failed' ? 'allocate_servers: not enough available servers in zone' : null,
        createdAt,
        readyAt: status === 'ready' ? new Date(createdAt.getTime() + 240_000) : null,
      },
    });
    if (status === 'ready') {
      const free = servers.filter((s) => s.region === plan.region && s.status === 'available').slice(0, 1);
      for (const s of free) {
        s.status = 'allocated';
        await tx.server.update({ where: { id: s.id }, data: { status: 'allocated' } });
        await tx.allocation.create({
          data: { id: newId('alloc'), serverId: s.id, clusterId: cluster.id, role: 'control_plane' },
        });
        await tx.cluster.update({ where: { id: cluster.id }, data: { allocatedAt: createdAt } });
      }
    }
    const runStatus =
      status === 'ready' ? 'succeeded' : status === 'failed' ? 'failed' : status === 'pending' ? 'queued' : 'running';
    const kind = status === 'deleting' ? 'delete-cluster' : 'create-cluster';
    const doneSteps =
      status === 'ready' ? 5 : status === 'failed' ? 1 : status === 'provisioning' || status === 'deleting' ? 2 : 0;
    const runId = newId('run');
    await tx.workflowRun.create({
      data: {
        id: runId,
        orgId: org.id,
        kind,
        region: plan.region,
        clusterId: cluster.id,
        status: runStatus,
        error: status === 'failed' ? 'allocate_servers: not enough available servers in zone' : null,
        input: { template: cluster.template, node_count: cluster.nodeCount },
        createdAt,
        startedAt: status === 'pending' ? null : createdAt,
        finishedAt:
          runStatus === 'succeeded' || runStatus === 'failed' ? new Date(createdAt.getTime() + 240_000) : null,
        steps: {
          create: stepsOf(kind).map((name, position) => ({
            position,
            name,
            status:
              position < doneSteps
                ? 'succeeded'
                : position === doneSteps && status === 'failed'
                  ? 'failed'
                  : position === doneSteps && runStatus === 'running'
                    ? 'running'
                    : 'pending',
            attempts: position <= doneSteps && status !== 'pending' ? 1 : 0,
            startedAt: position <= doneSteps && status !== 'pending' ? createdAt : null,
            finishedAt: position < doneSteps ? createdAt : null,
          })),
        },
      },
    });
    if (runStatus === 'queued' || runStatus === 'running') {
      // In flight: the region's workers carry it on from the step it is at.
      await enqueueStep(tx, plan.region, { runId, position: doneSteps });
    }
    if (status === 'ready' || status === 'failed') {
      const admin = USERS.find((u) => u.org === plan.org)!;
      await tx.notification.create({
        data: {
          id: newId('ntf'),
          orgId: org.id,
          userId: userIds[admin.email]!,
          kind: status === 'ready' ? 'cluster.ready' : 'cluster.failed',
          title: status === 'ready' ? `Cluster ${cluster.name} is ready` : `Cluster ${cluster.name} failed`,
          body:
            status === 'ready'
              ? `${cluster.name} in ${plan.region} finished provisioning.`
              : `${cluster.name} in ${plan.region} could not be created: ${cluster.statusReason}`,
          resourceId: cluster.id,
          read: n % 3 === 0,
          readAt: n % 3 === 0 ? new Date(createdAt.getTime() + 300_000) : null,
          createdAt: new Date(createdAt.getTime() + 240_000),
        },
      });
    }
  }
}
