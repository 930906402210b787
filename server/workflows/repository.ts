// Workflow runs of one organization, with their steps.
import type { Db } from '../db/client';

export async function getRun(db: Db, orgId: string, id: string) {
  const run = await db.workflowRun.findFirst({
    where: { id, orgId },
    include: { steps: { orderBy: { position: 'asc' } } },
  });
  if (!run) return null;
  return {
    id: run.id,
    kind: run.kind,
    region: run.region,
    cluster_id: run.clusterId,
    status: run.status,
    error: run.error,
    created_at: run.createdAt.toISOString(),
    started_at: run.startedAt?.toISOString() ?? null,
    finished_at: run.finishedAt?.toISOString() ?? null,
    steps: run.steps.map((s) => ({
      position: s.position,
      name: s.name,
      status: s.status,
      attempts: s.attempts,
      error: s.error,
      started_at: s.startedAt?.toISOString() ?? null,
      finished_at: s.finishedAt?.toISOString() ?? null,
    })),
  };
}
