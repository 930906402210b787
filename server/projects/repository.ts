// Projects of one organization. Every function takes the organization's ID: there is no way to
// reach another organization's projects from here.
import { z } from 'zod';
import type { Db } from '../db/client';
import type { Tx } from '../db/access';
import { newId } from '../ids';

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

export async function listProjects(db: Db, orgId: string, opts: { limit: number; cursor?: string }) {
  const rows = await db.project.findMany({
    where: { orgId, ...(opts.cursor ? { id: { gt: opts.cursor } } : {}) },
    orderBy: { id: 'asc' },
    take: opts.limit + 1,
  });
  const page = rows.slice(0, opts.limit);
  return { data: page.map(toView), next_cursor: rows.length > opts.limit ? page.at(-1)!.id : null };
}

export async function getProject(db: Db | Tx, orgId: string, id: string) {
  const row = await db.project.findFirst({ where: { id, orgId } });
  return row ? toView(row) : null;
}

/** The organization's first project by name (what a create uses when nothing names one). */
export async function firstProject(db: Db, orgId: string) {
  const row = await db.project.findFirst({ where: { orgId }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
  return row ? toView(row) : null;
}

export async function projectNamed(tx: Tx, orgId: string, name: string) {
  return tx.project.findFirst({ where: { orgId, name }, select: { id: true } });
}

export async function createProject(tx: Tx, orgId: string, input: { name: string; defaultRegion: string | null }) {
  const row = await tx.project.create({
    data: { id: newId('prj'), orgId, name: input.name, defaultRegion: input.defaultRegion },
  });
  return toView(row);
}

/** Sets a project's default region (null clears it); null when the project is not the org's. */
export async function setProjectRegion(tx: Tx, orgId: string, id: string, defaultRegion: string | null) {
  const n = await tx.project.updateMany({ where: { id, orgId }, data: { defaultRegion } });
  return n.count ? toView(await tx.project.findUniqueOrThrow({ where: { id } })) : null;
}
