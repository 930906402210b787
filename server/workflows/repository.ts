// Workflow runs of one organization, with their steps.
import { z } from 'zod';
import type { Db } from '../db/client';

/** A step of a run, as the API shows it (organizations' runs and servers' runs alike). */
export const runStepView = z.object({
  position: z.number(),
  name: z.string(),
  status: z.string(),
  attempts: z.number(),
  error: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export const workflowRunView = z.object({
  id: z.string(),
  kind: z.string(),
  region: z.string(),
  cluster_id: z.string().nullable(),
  status: z.string(),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  steps: z.array(runStepView),
});

export async function getRun(db: Db, orgId: string, id: string): Promise<z.infer<typeof workflowRunView> | null> {
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
