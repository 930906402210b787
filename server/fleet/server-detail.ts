// One server as operators see it: placement, hardware, current allocation, the latest run with
// its steps, and its history (released allocations, runs, audit trail).
import type { z } from 'zod';
import { read } from '../db/access';
import type { Db } from '../db/client';
import type { DataRequest } from '../db/request-state';
import { runOne } from '../db/sql';
import { isId } from '../ids';
import { serverById } from './fleet.sql';
import { emailsOf, iso, runView, serverNotFound } from './server-runs';
import type { ServerAllocationView, serverDetailView } from './server-views';

const HISTORY = 20;

async function detailOf(db: Db, id: string): Promise<z.infer<typeof serverDetailView> | null> {
  const row = await runOne(db, serverById, id);
  if (!row) return null;
  const [server, allocations, runs, audit] = await Promise.all([
    db.server.findUniqueOrThrow({ where: { id }, select: { metadata: true } }),
    db.allocation.findMany({
      where: { serverId: id },
      include: {
        cluster: {
          select: {
            id: true,
            name: true,
            status: true,
            organization: { select: { id: true, slug: true, name: true } },
          },
        },
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: HISTORY + 10,
    }),
    db.workflowRun.findMany({
      where: { serverId: id },
      include: { steps: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: HISTORY,
    }),
    db.auditEvent.findMany({
      where: { targetType: 'server', targetId: id },
      include: { actor: { select: { id: true, email: true } } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: HISTORY,
    }),
  ]);
  const emails = await emailsOf(db, runs);
  const allocation = (a: (typeof allocations)[number]): ServerAllocationView => ({
    id: a.id,
    role: a.role,
    created_at: a.createdAt.toISOString(),
    released_at: iso(a.releasedAt),
    cluster: a.cluster ? { id: a.cluster.id, name: a.cluster.name, status: a.cluster.status } : null,
    organization: a.cluster?.organization ?? null,
  });
  return {
    ...row,
    metadata: (server.metadata ?? {}) as Record<string, unknown>,
    allocations: allocations.filter((a) => !a.releasedAt).map(allocation),
    latest_run: runs[0] ? runView(runs[0], emails) : null,
    history: {
      allocations: allocations
        .filter((a) => a.releasedAt)
        .slice(0, HISTORY)
        .map(allocation),
      runs: runs.map((r) => runView(r, emails)),
      audit: audit.map((e) => ({
        id: e.id,
        action: e.action,
        actor: e.actor ? { id: e.actor.id, email: e.actor.email } : null,
        request_id: e.requestId,
        metadata: (e.metadata ?? {}) as Record<string, unknown>,
        created_at: e.createdAt.toISOString(),
      })),
    },
  };
}

/** One server with its allocations, runs (the latest with its steps) and audit trail; 404 otherwise. */
export async function serverDetail(
  req: DataRequest,
  scope: string | null,
  id: string,
): Promise<z.infer<typeof serverDetailView>> {
  if (!isId(id, 'srv')) throw serverNotFound(id); // never a query for something that can't exist
  const found = await read(req, (db) => detailOf(db, id));
  if (!found || (scope && found.region !== scope)) throw serverNotFound(id);
  return found;
}
