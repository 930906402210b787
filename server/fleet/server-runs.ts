// A server's workflow runs as Atlas shows them (with their steps and who asked), and one run by
// ID: what the `Location` of a provision points at.
import { read, type Tx } from '../db/access';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { isId } from '../ids';
import type { ServerRunView } from './server-views';

export const iso = (d: Date | null) => d?.toISOString() ?? null;

export type RunWithSteps = Prisma.WorkflowRunGetPayload<{ include: { steps: true } }>;

export function runView(run: RunWithSteps, emails: Map<string, string>): ServerRunView {
  const requestedBy = (run.input as { requested_by?: unknown } | null)?.requested_by;
  return {
    id: run.id,
    kind: run.kind,
    region: run.region,
    server_id: run.serverId,
    status: run.status,
    error: run.error,
    requested_by: typeof requestedBy === 'string' ? (emails.get(requestedBy) ?? requestedBy) : null,
    created_at: run.createdAt.toISOString(),
    started_at: iso(run.startedAt),
    finished_at: iso(run.finishedAt),
    steps: [...run.steps]
      .sort((a, b) => a.position - b.position)
      .map((s) => ({
        position: s.position,
        name: s.name,
        status: s.status,
        attempts: s.attempts,
        error: s.error,
        started_at: iso(s.startedAt),
        finished_at: iso(s.finishedAt),
      })),
  };
}

/** The email of each user who requested one of `runs`. */
export async function emailsOf(db: Db | Tx, runs: RunWithSteps[]): Promise<Map<string, string>> {
  const ids = [
    ...new Set(
      runs
        .map((r) => (r.input as { requested_by?: unknown } | null)?.requested_by)
        .filter((v): v is string => typeof v === 'string'),
    ),
  ];
  if (!ids.length) return new Map();
  const users = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } });
  return new Map(users.map((u) => [u.id, u.email]));
}

export function serverNotFound(id: string): AppError {
  return new AppError('not_found', `no server ${id.length > 40 ? `${id.slice(0, 40)}…` : id}`);
}

/** One of the server's runs with its steps (what `Location` of a provision points at). */
export async function serverRun(
  req: DataRequest,
  scope: string | null,
  serverId: string,
  runId: string,
): Promise<ServerRunView> {
  if (!isId(serverId, 'srv')) throw serverNotFound(serverId);
  const missing = () => new AppError('not_found', `no run ${runId.slice(0, 40)} of server ${serverId}`);
  if (!isId(runId, 'run')) throw missing();
  const run = await read(req, async (db) => {
    const r = await db.workflowRun.findFirst({ where: { id: runId, serverId }, include: { steps: true } });
    return r && { run: r, emails: await emailsOf(db, [r]) };
  });
  if (!run || (scope && run.run.region !== scope)) throw missing();
  return runView(run.run, run.emails);
}
