// The stored region of a resource named in a request's path (the cascade's "resource" step);
// scoped, so another organization's resource has none. docs/flows/region-resolution.md
import type { OrgContext } from '../auth/identity';
import { isConnectionError } from '../db/connection-errors';
import type { Db } from '../db/client';
import { primaryThenReplicas } from '../db/primary-reads';
import { idPrefix } from '../ids';

export interface LookupScope {
  org: OrgContext | null;
  operator: boolean;
}

/** The primary first (it has a resource created a moment ago); any replica when it is down. */
export async function storedRegion(id: string, scope: LookupScope): Promise<string | null> {
  let lastError: unknown;
  for (const db of primaryThenReplicas()) {
    try {
      return await lookup(db(), id, scope);
    } catch (e) {
      if (!isConnectionError(e)) throw e;
      lastError = e;
    }
  }
  throw lastError;
}

async function lookup(db: Db, id: string, scope: LookupScope): Promise<string | null> {
  const prefix = idPrefix(id);
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
