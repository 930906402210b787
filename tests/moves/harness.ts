// Wiring for the workspace-move tests: the demo database, the directory behind a real loopback
// HTTP server (cells' signed calls travel over HTTP), every cell's key, the workspaces registered
// by the cells' heartbeat, and helpers to start moves as an operator and follow them.
import { expect } from 'vitest';
import { rest, sessionCookie, useDemoDatabase as demoDatabase } from '../../dev/testing/app';
import { registerWithDirectory } from '../../server/cell/registration';
import { primary } from '../../server/db/client';
import { trustPeerHeader } from '../../server/net/client-address';
import { startWorkers, type Workers } from '../../server/worker/workers';
import { directoryServer, provisionKeys } from '../directory/harness';
import { FAST_WORKFLOWS, setEnv } from '../../dev/testing/workflow-env';

// A killed worker's bulk step is retried after 5 s (15 minutes in production).
export const FAST = { ...FAST_WORKFLOWS, WORKFLOW_STEP_TIMEOUT_SECONDS: '3', MOVE_BULK_STEP_TIMEOUT_SECONDS: '5' };
export { setEnv };

export interface MoveEnv {
  urls: { primary: string; replicas: Record<string, string> };
  ops: string;
  credentials: Awaited<ReturnType<typeof demoDatabase>>['credentials'];
  closeDirectory: () => Promise<void>;
}

export async function moveEnvironment(name: string): Promise<MoveEnv> {
  setEnv(FAST);
  const { urls, credentials } = await demoDatabase(name);
  trustPeerHeader();
  provisionKeys();
  const directory = await directoryServer();
  setEnv({ MERIDIAN_DIRECTORY_URL: directory.url });
  await registerWithDirectory();
  const opsUser = await primary().user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } });
  return { urls, credentials, ops: await sessionCookie(opsUser.id, null), closeDirectory: directory.close };
}

export async function cookieOf(email: string, slug: string): Promise<string> {
  const u = await primary().user.findUniqueOrThrow({ where: { email } });
  const o = await primary().organization.findUniqueOrThrow({ where: { slug } });
  return sessionCookie(u.id, o.id);
}

export async function workers(urls: MoveEnv['urls'], regions: string[]): Promise<Workers> {
  return startWorkers({ connectionString: urls.primary, regions });
}

export interface MoveBody {
  id: string;
  status: string;
  step: string | null;
  error: string | null;
  run_id: string;
  cancellable: boolean;
  read_only: { started_at: string | null; ended_at: string | null; seconds: number | null };
  tables: { name: string; count: number; digest: string; verified_count: number | null; match: boolean | null }[];
  steps: { name: string; status: string; attempts: number; duration_ms: number | null }[];
  error_code?: string;
}

export async function startMove(ops: string, slug: string, to: string) {
  const res = await rest<MoveBody & { error?: { code: string } }>('POST', '/v1/atlas/moves', {
    headers: { cookie: ops },
    body: { slug, to_region: to },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body;
}

export async function moveState(id: string) {
  return primary().workspaceMove.findUniqueOrThrow({ where: { id } });
}

/** The move's stored bundle chunks (0 once it ended). */
export function chunksOf(moveId: string) {
  return primary().workspaceMoveChunk.count({ where: { moveId } });
}

/** Polls the move until `done` holds (or the timeout). */
export async function waitForMove(
  id: string,
  done: (m: Awaited<ReturnType<typeof moveState>>, steps: { name: string; status: string }[]) => boolean,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // The move, its steps, the move again, judged against both reads of the move. A step's success
    // commits with its effect on the move: the second read has every effect of the steps seen (a
    // step's predicate), and the steps are at least as new as the first (a move's predicate, e.g.
    // ended: its steps are final by then). One order alone races one kind of predicate.
    const before = await moveState(id);
    const steps = before.runId
      ? await primary().workflowStep.findMany({ where: { runId: before.runId }, orderBy: { position: 'asc' } })
      : [];
    const m = await moveState(id);
    if (done(before, steps) && done(m, steps)) return { move: m, steps };
    if (Date.now() > deadline) {
      throw new Error(
        `move ${id} still ${m.status}/${m.step}: ${JSON.stringify(steps.map((s) => [s.name, s.status, s.error]))}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const stepDone = (name: string) => (_: unknown, steps: { name: string; status: string }[]) =>
  steps.find((s) => s.name === name)?.status === 'succeeded';

export const ended = (m: { status: string }) => ['completed', 'failed', 'cancelled'].includes(m.status);
