// Suspending an organization: its API keys, sessions and sign-in hand-offs are refused (403
// organization_suspended), its slug resolves like an unknown one (docs/api.md).
import { recordAudit } from '../audit/audit';
import { changed as identityChanged } from '../auth/identity-cache';
import { activateSlug, homeRegionOf, suspendSlug } from '../cell/workspaces';
import { write } from '../db/access';
import { readPrimary } from '../db/primary-reads';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { regionRegistry } from '../region/registry';
import { logger } from '../telemetry/logger';

export const ORG_SUSPEND_AUDIT_ACTION = 'operator.organization.suspend' as const;
export const ORG_REINSTATE_AUDIT_ACTION = 'operator.organization.reinstate' as const;

export function organizationSuspended(): AppError {
  return new AppError(
    'organization_suspended',
    'this organization is suspended: its API keys, sessions and sign-ins are refused until a platform operator reinstates it',
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

/** Throws the 403 when `org` is suspended. */
export function assertNotSuspended(org: { status: string } | null | undefined): void {
  if (org?.status === 'suspended') throw organizationSuspended();
}

/** The same, for an organization known by ID only (read on the primary: a suspension is at once). */
export async function assertOrganizationActive(orgId: string | null): Promise<void> {
  if (!orgId) return;
  assertNotSuspended(
    await readPrimary((db) => db.organization.findUnique({ where: { id: orgId }, select: { status: true } })),
  );
}

/**
 * Suspends (or reinstates) an organization, audited in the same transaction. Gateways drop their
 * cached identities of it at commit (the organizations table's NOTIFY trigger; this process at
 * once). The directory is told right after, best effort: a failed call is repaired by the cell's
 * next registration heartbeat, which registers suspended workspaces as suspended.
 */
export async function setOrganizationSuspended(
  req: DataRequest,
  actorId: string | null,
  orgId: string,
  suspended: boolean,
  reason?: string,
): Promise<{ id: string; slug: string; status: 'active' | 'suspended' }> {
  const org = await write(req, async (tx) => {
    const before = await tx.organization.findUnique({
      where: { id: orgId },
      select: { slug: true, status: true, defaultRegion: true, homeRegion: true, allowedRegions: true },
    });
    if (!before) throw new AppError('not_found', `no organization ${orgId}`);
    if (before.status === 'moving')
      throw new AppError('conflict', 'the organization is moving: try when the move ends');
    if (before.status === 'offboarding')
      throw new AppError('conflict', 'the organization is being offboarded: cancel the offboarding first');
    const status = suspended ? ('suspended' as const) : ('active' as const);
    if (before.status !== status) {
      await tx.organization.update({ where: { id: orgId }, data: { status } });
      await recordAudit(tx, {
        action: suspended ? ORG_SUSPEND_AUDIT_ACTION : ORG_REINSTATE_AUDIT_ACTION,
        targetType: 'organization',
        targetId: orgId,
        orgId,
        actorId,
        requestId: req.requestId,
        metadata: { before: before.status, after: status, ...(reason ? { reason } : {}) },
      });
    }
    return { ...before, status };
  });
  identityChanged([`org:${orgId}`], { lsn: req.consistency.newBookmark });
  const registry = await regionRegistry();
  const home = homeRegionOf(
    { ...org, allowedRegions: org.allowedRegions.map((r) => r.region) },
    registry.all().map((r) => r.code),
  );
  if (home) {
    await (suspended ? suspendSlug(home, org.slug) : activateSlug(home, org.slug)).catch((e: unknown) =>
      logger.warn({ err: (e as Error).message, slug: org.slug }, 'directory: suspension not sent; the heartbeat will'),
    );
  }
  return { id: orgId, slug: org.slug, status: org.status };
}
