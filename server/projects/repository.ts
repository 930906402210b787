// Projects of one organization. Every function takes the organization's ID: there is no way to
// reach another organization's projects from here, nor a deleted one (`deletedAt` set).
import { z } from 'zod';
import type { Db } from '../db/client';
import type { Tx } from '../db/access';
import { encodeCursor } from '../db/cursor';
import { isoTimeSql } from '../db/sql';

/** A project as the API shows it. */
export const projectView = z.object({
  id: z.string(),
  name: z.string(),
  default_region: z.string().nullable(),
  created_at: z.string(),
});
export type ProjectView = z.infer<typeof projectView>;

type Row = { id: string; name: string; defaultRegion: string | null; createdAt: Date };

export function toView(p: Row): ProjectView {
  return { id: p.id, name: p.name, default_region: p.defaultRegion, created_at: p.createdAt.toISOString() };
}

/** toView in SQL, over a `projects` row named `a`: the body a statement answers with and keeps. */
export const projectViewSql = (a: string) =>
  `jsonb_build_object('id', ${a}.id, 'name', ${a}.name, 'default_region', ${a}.default_region, 'created_at', ${isoTimeSql(`${a}.created_at`)})`;

/** One page of the organization's projects by ID (`afterId`: the last ID of the page before). */
export async function listProjects(db: Db, orgId: string, opts: { limit: number; afterId?: string }) {
  const rows = await db.project.findMany({
    where: { orgId, deletedAt: null, ...(opts.afterId ? { id: { gt: opts.afterId } } : {}) },
    orderBy: { id: 'asc' },
    take: opts.limit + 1,
  });
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  return { data: page.map(toView), next_cursor: rows.length > opts.limit && last ? encodeCursor([last.id]) : null };
}

export async function getProject(db: Db | Tx, orgId: string, id: string) {
  const row = await db.project.findFirst({ where: { id, orgId, deletedAt: null } });
  return row ? toView(row) : null;
}

/** The organization's first project by name (what a create uses when nothing names one). */
export async function firstProject(db: Db, orgId: string) {
  const row = await db.project.findFirst({
    where: { orgId, deletedAt: null },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
  return row ? toView(row) : null;
}
