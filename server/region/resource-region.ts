// The stored region of a resource named in a request's path: the cascade's "resource" step.
// Scoped like every other read: a resource of another organization has no region (null), so
// its existence is never revealed.
import type { OrgContext } from '../auth/identity';
import { primary } from '../db/client';
import { idPrefix } from '../ids';

export interface LookupScope {
  org: OrgContext | null;
  operator: boolean;
}

export async function storedRegion(id: string, scope: LookupScope): Promise<string | null> {
  const prefix = idPrefix(id);
  const db = primary();
  const orgWhere = scope.operator ? {} : scope.org ? { orgId: scope.org.id } : undefined;
  switch (prefix) {
    case 'cls':
      if (!orgWhere) return null;
      return (await db.cluster.findFirst({ where: { id, ...orgWhere }, select: { region: true } }))?.region ?? null;
    case 'run':
      if (!orgWhere) return null;
      return (await db.workflowRun.findFirst({ where: { id, ...orgWhere }, select: { region: true } }))?.region ?? null;
    case 'srv':
      if (!scope.operator) return null;
      return (await db.server.findUnique({ where: { id }, select: { region: true } }))?.region ?? null;
    default:
      return null;
  }
}
