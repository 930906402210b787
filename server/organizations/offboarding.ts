// Offboarding an organization: read-only at once, its clusters deleted through their workflows,
// its data purged by the workers' housekeeping once the grace period passed (cancellable until
// then), its slug released in the directory; its audit trail is kept (docs/flows/workspace-lifecycle.md).
import { z } from 'zod';
import { DELETABLE_CLUSTER_STATUSES } from '~/lib/cluster-status';
import { recordAudit, type AuditAction } from '../audit/audit';
import { changed as identityChanged } from '../auth/identity-cache';
import { DirectoryCallError } from '../cell/client';
import { homeRegionOf, releaseSlug } from '../cell/workspaces';
import { deleteClusterWorkflow } from '../clusters/delete-workflow';
import { markDeleting } from '../clusters/repository';
import { write, type Tx } from '../db/access';
import { backgroundDb } from '../db/background';
import type { DataRequest } from '../db/request-state';
import { env } from '../env';
import { AppError } from '../errors';
import { isId } from '../ids';
import { regionRegistry } from '../region/registry';
import { logger } from '../telemetry/logger';
import { startRun } from '../workflows/runs';

export const ORG_OFFBOARD_AUDIT_ACTION = 'operator.organization.offboard' as const;
export const ORG_CANCEL_OFFBOARD_AUDIT_ACTION = 'operator.organization.cancel_offboard' as const;

export const offboardingView = z.object({
  id: z.string(),
  slug: z.string(),
  status: z.enum(['active', 'offboarding']),
  offboarding_started_at: z.string().nullable(),
  purge_after: z.string().nullable().describe('When the data is purged; cancellable until then'),
  clusters_deleting: z
    .array(z.object({ id: z.string(), run_id: z.string() }))
    .describe('Clusters whose delete-cluster run this request started'),
});
export type OffboardingView = z.infer<typeof offboardingView>;

export const confirmSchema = z.string().max(100).describe('The organization’s slug, typed to confirm');

export interface Offboarder {
  userId: string;
  /** An operator in Atlas (audited as operator.*), or the organization's own admin. */
  operator: boolean;
}

const notFound = (id: string) => new AppError('not_found', `no organization ${id}`);

/** Starts the delete-cluster run of every live cluster that can be deleted now (ready or failed). */
async function deleteLiveClusters(tx: Tx, orgId: string, userId: string | null) {
  const clusters = await tx.cluster.findMany({
    where: { orgId, status: { in: [...DELETABLE_CLUSTER_STATUSES] } },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  const started: { id: string; run_id: string }[] = [];
  for (const { id } of clusters) {
    const cluster = await markDeleting(tx, orgId, id);
    if (!cluster) continue;
    const runId = await startRun(tx, {
      orgId,
      workflow: deleteClusterWorkflow,
      region: cluster.region,
      clusterId: cluster.id,
      input: { requested_by: userId, reason: 'offboarding' },
    });
    started.push({ id, run_id: runId });
  }
  return started;
}

/**
 * Offboards an active organization once `confirm` is its slug: read-only from this commit on (the
 * status the request middleware and every create's statement check), its clusters' deletes
 * started, its purge due after the grace period (MERIDIAN_OFFBOARDING_GRACE_SECONDS).
 */
export async function startOffboarding(
  req: DataRequest,
  by: Offboarder,
  orgId: string,
  confirm: string,
): Promise<OffboardingView> {
  if (!isId(orgId, 'org')) throw notFound(orgId);
  const graceMs = env().MERIDIAN_OFFBOARDING_GRACE_SECONDS * 1000;
  const out = await write(req, async (tx) => {
    const org = await tx.organization.findUnique({ where: { id: orgId }, select: { slug: true, status: true } });
    if (!org) throw notFound(orgId);
    if (confirm !== org.slug) {
      throw new AppError('invalid_request', `type the workspace’s slug (${org.slug}) to confirm`, {
        extra: { details: [{ path: ['confirm'], message: 'must be the organization’s slug' }] },
      });
    }
    const now = new Date();
    const purgeAfter = new Date(now.getTime() + graceMs);
    // Conditional on `active`: a racing move, suspension or second offboarding loses here.
    const n = await tx.organization.updateMany({
      where: { id: orgId, status: 'active' },
      data: { status: 'offboarding', offboardingStartedAt: now, purgeAfter },
    });
    if (n.count !== 1) {
      throw new AppError(
        'conflict',
        org.status === 'offboarding'
          ? `${org.slug} is being offboarded already`
          : `${org.slug} is ${org.status}: only an active organization can be offboarded`,
        { extra: { status: org.status } },
      );
    }
    const deleting = await deleteLiveClusters(tx, orgId, by.userId);
    await recordAudit(tx, {
      action: by.operator ? ORG_OFFBOARD_AUDIT_ACTION : 'organization.offboard',
      targetType: 'organization',
      targetId: orgId,
      orgId,
      actorId: by.userId,
      requestId: req.requestId,
      metadata: { slug: org.slug, purge_after: purgeAfter.toISOString(), clusters_deleting: deleting.map((c) => c.id) },
    });
    return {
      id: orgId,
      slug: org.slug,
      status: 'offboarding' as const,
      offboarding_started_at: now.toISOString(),
      purge_after: purgeAfter.toISOString(),
      clusters_deleting: deleting,
    };
  });
  // Other gateways hear the organizations table's NOTIFY; this one forgets at once.
  identityChanged([`org:${orgId}`], { lsn: req.consistency.newBookmark });
  return out;
}

/** Cancels an offboarding during its grace period: writable again (deleted clusters stay deleted). */
export async function cancelOffboarding(req: DataRequest, by: Offboarder, orgId: string): Promise<OffboardingView> {
  if (!isId(orgId, 'org')) throw notFound(orgId);
  const out = await write(req, async (tx) => {
    const org = await tx.organization.findUnique({
      where: { id: orgId },
      select: { slug: true, status: true, purgeAfter: true },
    });
    if (!org) throw notFound(orgId);
    const n = await tx.organization.updateMany({
      where: { id: orgId, status: 'offboarding', purgeAfter: { gt: new Date() } },
      data: { status: 'active', offboardingStartedAt: null, purgeAfter: null },
    });
    if (n.count !== 1) {
      throw new AppError(
        'conflict',
        org.status === 'offboarding'
          ? `the grace period of ${org.slug} is over: its data is being purged`
          : `${org.slug} is not being offboarded`,
        { extra: { status: org.status } },
      );
    }
    await recordAudit(tx, {
      action: by.operator ? ORG_CANCEL_OFFBOARD_AUDIT_ACTION : 'organization.cancel_offboard',
      targetType: 'organization',
      targetId: orgId,
      orgId,
      actorId: by.userId,
      requestId: req.requestId,
      metadata: { slug: org.slug, purge_after_was: org.purgeAfter?.toISOString() ?? null },
    });
    return {
      id: orgId,
      slug: org.slug,
      status: 'active' as const,
      offboarding_started_at: null,
      purge_after: null,
      clusters_deleting: [],
    };
  });
  identityChanged([`org:${orgId}`], { lsn: req.consistency.newBookmark });
  return out;
}

/**
 * The housekeeping sweep: for every organization being offboarded, starts the deletes of clusters
 * that became deletable since (a create that was still running); once its grace period passed and
 * no cluster is left, releases its slug in the directory and purges it. Safe for several workers
 * at once (a purge deletes only a row still offboarding; the directory's release is idempotent
 * here). Returns how many organizations it purged.
 */
export async function sweepOffboarding(now = new Date()): Promise<number> {
  const db = backgroundDb();
  const orgs = await db.organization.findMany({
    where: { status: 'offboarding' },
    select: {
      id: true,
      slug: true,
      name: true,
      purgeAfter: true,
      defaultRegion: true,
      homeRegion: true,
      allowedRegions: { select: { region: true } },
    },
    orderBy: { purgeAfter: 'asc' },
  });
  if (!orgs.length) return 0;
  const order = (await regionRegistry()).all().map((r) => r.code);
  let purged = 0;
  for (const org of orgs) {
    await db.$transaction((tx) => deleteLiveClusters(tx, org.id, null));
    if (!org.purgeAfter || org.purgeAfter > now) continue;
    const left = await db.cluster.count({ where: { orgId: org.id, status: { not: 'deleted' } } });
    if (left > 0) continue; // their delete runs are under way: the next sweep purges
    const home = homeRegionOf({ ...org, allowedRegions: org.allowedRegions.map((r) => r.region) }, order);
    // The slug first: a failed release leaves the organization to the next sweep, so no slug is
    // ever left held for an organization that no longer exists.
    if (home) {
      try {
        await releaseSlug(home, org.slug);
      } catch (e) {
        if (!(e instanceof DirectoryCallError && e.status === 404)) {
          logger.warn({ err: (e as Error).message, slug: org.slug }, 'offboarding: slug not released; will retry');
          continue;
        }
      }
    }
    if (await purge(org, now)) purged++;
  }
  return purged;
}

const PURGE_ACTION: AuditAction = 'organization.purge';

/** Rolls a purge's transaction back (its event with it) when the organization was not deleted. */
class NotPurged extends Error {}

/**
 * Deletes the organization (its rows go by the foreign keys' cascades) and the users who belonged
 * to it alone (no operator). Audit events stay: the foreign keys forget org_id and actor_id, and
 * the purge's own event names the organization.
 */
async function purge(org: { id: string; slug: string; name: string }, now: Date): Promise<boolean> {
  const done = backgroundDb().$transaction(async (tx) => {
    const members = await tx.membership.findMany({ where: { orgId: org.id }, select: { userId: true } });
    const onlyHere = await tx.user.findMany({
      where: {
        id: { in: members.map((m) => m.userId) },
        platformRole: 'none',
        memberships: { every: { orgId: org.id } },
      },
      select: { id: true },
    });
    const [events, clusters] = await Promise.all([
      tx.auditEvent.count({ where: { orgId: org.id } }),
      tx.cluster.count({ where: { orgId: org.id } }),
    ]);
    await recordAudit(tx, {
      action: PURGE_ACTION,
      targetType: 'organization',
      targetId: org.id,
      metadata: {
        org_id: org.id,
        slug: org.slug,
        name: org.name,
        audit_events_kept: events,
        clusters_deleted: clusters,
        users_deleted: onlyHere.length,
      },
    });
    const gone = await tx.organization.deleteMany({
      where: { id: org.id, status: 'offboarding', purgeAfter: { lte: now } },
    });
    if (gone.count !== 1) throw new NotPurged(); // another worker purged it, or it was cancelled
    await tx.user.deleteMany({ where: { id: { in: onlyHere.map((u) => u.id) } } });
    logger.info({ org_id: org.id, slug: org.slug }, 'offboarding: organization purged');
    return true;
  });
  return done.catch((e: unknown) => {
    if (e instanceof NotPurged) return false;
    throw e;
  });
}
