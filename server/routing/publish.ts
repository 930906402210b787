// Publishing a routing policy version: one transaction that validates, projects, audits and
// NOTIFYs. docs/flows/routing-policy.md#the-policy-and-its-store
import { recordAudit } from '../audit/audit';
import { changed as identityChanged } from '../auth/identity-cache';
import { homeRegionOf } from '../cell/workspaces';
import { write, type Tx } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { execute, runOne } from '../db/sql';
import { AppError } from '../errors';
import { diffPolicies, samePolicy, type PolicyChange } from './policy-diff';
import { formatVersion, parseVersion, type PolicyVersion } from './policy';
import { type PolicyContent } from './policy-content';
import { checkContent, invalid, safetyIssues } from './policy-checks';
import { emailsOf, orgIdOf, registryOrder } from './policy-org';
import { currentPolicyOf, versionView, type PolicyVersionView } from './policy-versions';
import {
  defaultVersionContent,
  insertVersion,
  lockOrg,
  lockStore,
  notifyPolicyChange,
  setStoreSequence,
  versionContentOfOrg,
  type LockedOrgRow,
  type StoredPolicy,
} from './policy.sql';

export const POLICY_PUBLISH_AUDIT_ACTION = 'operator.policy.publish' as const;
export const POLICY_ROLLBACK_AUDIT_ACTION = 'operator.policy.rollback' as const;

export interface LockedOrg extends LockedOrgRow {
  allowed: string[];
}

export interface PublishContext {
  requestId: string | null;
  /** null: the system (a workspace move's handover). */
  actorId: string | null;
}

export interface PublishPlan {
  content: unknown;
  /** The organization's default region after this change (organizations only; undefined: unchanged). */
  defaultRegion?: string | null;
}

export interface PublishOptions {
  rollbackOf?: PolicyVersion;
  reason?: string | null;
  /** `refuse`: 409 when the content equals the current one; `skip`: write the projection only. */
  ifUnchanged: 'refuse' | 'skip';
  /** The home region the primary must equal (a move's handover sets the new one). */
  homeRegion?: string;
  audit?: boolean;
}

export interface PublishOutcome {
  /** null when skipped (nothing changed). */
  policy: StoredPolicy | null;
  previous: StoredPolicy | null;
  changes: PolicyChange[];
  clearedProjects: string[];
}

/**
 * Publishes a version inside the caller's transaction. `plan` sees the locked current state and
 * says what to publish (so a caller that derives the content, like the regions PATCH, decides
 * under the same locks). Lock order everywhere: the store's row, then the organization's.
 */
export async function publishInTx(
  tx: Tx,
  ctx: PublishContext,
  orgId: string | null,
  plan: (now: {
    current: StoredPolicy | null;
    org: LockedOrg | null;
    /** The home region an organization would have with these allowed regions and default. */
    homeFor: (allowed: string[], defaultRegion: string | null) => string | undefined;
  }) => PublishPlan,
  opts: PublishOptions,
): Promise<PublishOutcome> {
  const store = await runOne(tx, lockStore);
  if (!store) throw new Error('the routing policy store has no row');
  let org: LockedOrg | null = null;
  if (orgId !== null) {
    const o = await runOne(tx, lockOrg, orgId);
    if (!o) throw new AppError('not_found', `no organization ${orgId}`);
    const allowed = (
      await tx.organizationRegion.findMany({ where: { orgId }, select: { region: true }, orderBy: { region: 'asc' } })
    ).map((r) => r.region);
    org = { ...o, allowed };
  }
  const { policy: current } = await currentPolicyOf(tx, orgId);
  const regions = await registryOrder(tx);
  const status = new Map(regions.map((r) => [r.code, r.status]));
  const homeFor = (allowed: string[], defaultRegion: string | null) =>
    opts.homeRegion ??
    homeRegionOf({ homeRegion: org?.home_region ?? null, defaultRegion, allowedRegions: allowed }, [...status.keys()]);
  const p = plan({ current, org, homeFor });
  const { content, issues } = checkContent(p.content, status);
  if (!content) throw invalid('the policy is not valid: see error.details', issues);
  const defaultRegion = org ? (p.defaultRegion !== undefined ? p.defaultRegion : org.default_region) : null;
  if (org) {
    issues.push(
      ...safetyIssues({ home: homeFor(content.allowed_regions, defaultRegion), defaultRegion }, content, status),
    );
  }
  const unchanged = current !== null && samePolicy(current.content, content);
  // A content equal to the current version publishes nothing: with `skip` (a change of the
  // default region alone), rules that changed since that version was published don't apply.
  if (issues.length && !(unchanged && opts.ifUnchanged === 'skip')) {
    throw invalid(`the policy is not valid: ${issues[0]!.message}`, issues);
  }
  if (unchanged && opts.ifUnchanged === 'refuse') {
    throw new AppError(
      'conflict',
      `nothing changed: version ${formatVersion(current.version)} is already this policy`,
      { extra: { current_version: formatVersion(current.version) } },
    );
  }
  const cleared = org ? await project(tx, org, content, defaultRegion) : [];
  if (unchanged) return { policy: null, previous: current, changes: [], clearedProjects: cleared };

  const version = { epoch: store.epoch, sequence: store.sequence + 1 };
  await execute(tx, setStoreSequence, version.sequence);
  const policy = (await runOne(
    tx,
    insertVersion,
    version.epoch,
    version.sequence,
    orgId,
    JSON.stringify(content),
    ctx.actorId,
    opts.rollbackOf?.epoch ?? null,
    opts.rollbackOf?.sequence ?? null,
    opts.reason ?? null,
  ))!;
  const changes = diffPolicies(current?.content ?? null, content);
  if (opts.audit !== false) {
    await recordAudit(tx, {
      action: opts.rollbackOf ? POLICY_ROLLBACK_AUDIT_ACTION : POLICY_PUBLISH_AUDIT_ACTION,
      targetType: 'routing_policy',
      targetId: `${orgId ?? 'default'}@${formatVersion(version)}`,
      orgId,
      actorId: ctx.actorId,
      requestId: ctx.requestId,
      metadata: {
        version: formatVersion(version),
        previous: current ? formatVersion(current.version) : null,
        ...(opts.rollbackOf ? { rollback_of: formatVersion(opts.rollbackOf) } : {}),
        ...(opts.reason ? { reason: opts.reason } : {}),
        changes,
        ...(cleared.length ? { cleared_project_defaults: cleared } : {}),
      },
    });
  }
  // Delivered at commit, never for a rolled-back publish.
  await execute(tx, notifyPolicyChange, `${formatVersion(version)} ${orgId ?? 'default'}`);
  return { policy, previous: current, changes, clearedProjects: cleared };
}

/**
 * The projection the rest of the app reads: organization_regions follows the allowed regions
 * (removing one where the organization still has live clusters is refused: 409), projects that
 * defaulted to a removed region lose that default, and the organization's row is touched, whose
 * NOTIFY drops every gateway's cached identities of it.
 */
async function project(
  tx: Tx,
  org: LockedOrg,
  content: PolicyContent,
  defaultRegion: string | null,
): Promise<string[]> {
  const removed = org.allowed.filter((r) => !content.allowed_regions.includes(r));
  const added = content.allowed_regions.filter((r) => !org.allowed.includes(r));
  if (removed.length) {
    // Delete first, then count: the delete waits for any cluster create holding one of these
    // rows (holdAllowedRegion), so the count below sees that cluster; a create that comes after
    // finds the region gone. Refused, the transaction rolls the delete back.
    await tx.organizationRegion.deleteMany({ where: { orgId: org.id, region: { in: removed } } });
    const held = await tx.cluster.groupBy({
      by: ['region'],
      where: { orgId: org.id, region: { in: removed }, status: { not: 'deleted' } },
      _count: true,
      orderBy: { region: 'asc' },
    });
    if (held.length) {
      const words = held.map((g) => `${g.region} (${g._count} cluster${g._count === 1 ? '' : 's'})`).join(', ');
      throw new AppError(
        'conflict',
        `cannot remove ${words}: the organization’s live clusters are still there; delete or move them first`,
        { extra: { details: { regions: held.map((g) => ({ region: g.region, live_clusters: g._count })) } } },
      );
    }
  }
  if (added.length) {
    await tx.organizationRegion.createMany({ data: added.map((region) => ({ orgId: org.id, region })) });
  }
  const cleared = removed.length
    ? (
        await tx.project.updateManyAndReturn({
          where: { orgId: org.id, defaultRegion: { in: removed }, deletedAt: null },
          data: { defaultRegion: null },
          select: { id: true },
        })
      ).map((p) => p.id)
    : [];
  // Always touch the row: its NOTIFY (org:<id>) drops the gateways' cached identities.
  await tx.organization.update({ where: { id: org.id }, data: { defaultRegion, updatedAt: new Date() } });
  return cleared;
}

function forgetIdentities(orgId: string | null, cleared: string[]): void {
  // Other gateways hear the triggers' NOTIFY; this one forgets at once.
  if (orgId) identityChanged([`org:${orgId}`, ...cleared.map((p) => `project:${p}`)]);
}

/**
 * Publishes `content` as the organization's (or the default's) next version; with `rollbackOf`,
 * that version's content (it must be one of this organization's versions).
 */
export async function publishPolicy(
  req: DataRequest,
  actorId: string,
  /** An organization ID or slug; `default` or null: the platform default. */
  orgRef: string | null,
  content: unknown,
  opts: { rollbackOf?: PolicyVersion; reason?: string | null } = {},
): Promise<PolicyVersionView> {
  const out = await write(req, async (tx) => {
    const orgId = await orgIdOf(tx, orgRef);
    let restored: unknown;
    if (opts.rollbackOf) {
      // Versions are immutable: reading it before the store's lock is as good as after.
      const { epoch, sequence } = opts.rollbackOf;
      const old =
        orgId === null
          ? await runOne(tx, defaultVersionContent, epoch, sequence)
          : await runOne(tx, versionContentOfOrg, epoch, sequence, orgId);
      if (!old) {
        throw new AppError(
          'not_found',
          `no version ${formatVersion(opts.rollbackOf)} of ${orgId ? orgRef : 'the platform default'}`,
        );
      }
      restored = old.content;
    }
    const published = await publishInTx(
      tx,
      { requestId: req.requestId, actorId },
      orgId,
      () => ({ content: opts.rollbackOf ? restored : content }),
      { ifUnchanged: 'refuse', rollbackOf: opts.rollbackOf, reason: opts.reason ?? null },
    );
    return { orgId, ...published, emails: await emailsOf(tx, [actorId]) };
  });
  forgetIdentities(out.orgId, out.clearedProjects);
  return versionView(out.policy!, out.emails);
}

/** Publishes an old version's content again, as a new version that says which it restored. */
export async function rollbackPolicy(
  req: DataRequest,
  actorId: string,
  orgRef: string | null,
  versionText: string,
  reason?: string | null,
): Promise<PolicyVersionView> {
  const version = parseVersion(versionText);
  if (!version) throw new AppError('invalid_request', `version: "${versionText}" is not epoch.sequence (e.g. 1.7)`);
  return publishPolicy(req, actorId, orgRef, undefined, {
    rollbackOf: version,
    reason: reason ?? `rollback to ${versionText}`,
  });
}
