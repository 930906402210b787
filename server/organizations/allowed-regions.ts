// An operator's change of an organization's allowed and default regions: validated, published as a
// policy version and audited in one transaction (docs/atlas.md).
import { recordAudit } from '../audit/audit';
import { changed as identityChanged } from '../auth/identity-cache';
import { write } from '../db/access';
import { readPrimary } from '../db/primary-reads';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { isId } from '../ids';
import { regionRegistry } from '../region/registry';
import { isRegionCode } from '../region/code';
import { builtInDefault, formatVersion } from '../routing/policy';
import { publishInTx } from '../routing/publish';
import { detailOf, organizationNotFound, type OrganizationDetail } from './operator-view';

export const ORG_REGIONS_AUDIT_ACTION = 'operator.organization.set_regions' as const;

export interface RegionsChange {
  allowed_regions?: string[];
  /** `null` clears the default (the organization's mutations must then name a region). */
  default_region?: string | null;
}

/** The checks that need no database: shapes, known codes, default among allowed (pure: unit-tested). */
export function validateRegionsChange(
  change: RegionsChange,
  current: { allowed: string[]; defaultRegion: string | null },
  known: ReadonlySet<string>,
): { allowed: string[]; defaultRegion: string | null } {
  if (change.allowed_regions === undefined && change.default_region === undefined) {
    throw new AppError('invalid_request', 'send allowed_regions, default_region or both');
  }
  const named = [...(change.allowed_regions ?? []), ...(change.default_region ? [change.default_region] : [])];
  const fieldOf = (r: string) => (change.allowed_regions?.includes(r) ? 'allowed_regions' : 'default_region');
  const malformed = named.filter((r) => !isRegionCode(r));
  if (malformed.length) {
    throw new AppError('invalid_region', `not region codes: ${malformed.join(', ')}`, {
      extra: { details: malformed.map((r) => ({ path: [fieldOf(r)], message: `"${r}" is not a region code` })) },
    });
  }
  const unknown = [...new Set(named.filter((r) => !known.has(r)))];
  if (unknown.length) {
    throw new AppError('invalid_region', `unknown regions: ${unknown.join(', ')}`, {
      extra: { details: unknown.map((r) => ({ path: [fieldOf(r)], message: `no region ${r}` })) },
    });
  }
  const allowed = change.allowed_regions ? [...new Set(change.allowed_regions)].sort() : current.allowed;
  if (allowed.length === 0) {
    throw new AppError('invalid_request', 'an organization needs at least one allowed region', {
      extra: { details: [{ path: ['allowed_regions'], message: 'at least one region' }] },
    });
  }
  const defaultRegion = change.default_region !== undefined ? change.default_region : current.defaultRegion;
  if (defaultRegion !== null && !allowed.includes(defaultRegion)) {
    throw new AppError(
      'invalid_request',
      change.default_region !== undefined
        ? `the default region ${defaultRegion} must be one of the allowed regions (${allowed.join(', ')})`
        : `the current default region ${defaultRegion} would no longer be allowed: choose another default (or none)`,
      { extra: { details: [{ path: ['default_region'], message: `not among ${allowed.join(', ')}` }] } },
    );
  }
  return { allowed, defaultRegion };
}

/**
 * Sets an organization's allowed and default regions. The allowed regions are part of the
 * organization's routing policy (server/routing/publish.ts): the change publishes a new policy
 * version (same transaction, same locks: the store's row, then the organization's, FOR NO KEY
 * UPDATE — two operators' changes apply one after the other, while cluster inserts, which hold the
 * row FOR KEY SHARE through their foreign key, are not blocked by it). The policy's projection
 * refuses removing a region that still holds live clusters (409) and clears project defaults in
 * removed regions; a change of the default region alone publishes no version.
 */
export async function setOrganizationRegions(
  req: DataRequest,
  actorId: string,
  id: string,
  change: RegionsChange,
): Promise<OrganizationDetail> {
  if (!isId(id, 'org')) throw organizationNotFound(id);
  const known = (await regionRegistry()).known;
  const cleared = await write(req, async (tx) => {
    let before: { allowed: string[]; defaultRegion: string | null } | undefined;
    let after: { allowed: string[]; defaultRegion: string | null } | undefined;
    const out = await publishInTx(
      tx,
      { requestId: req.requestId, actorId },
      id,
      ({ current, org, homeFor }) => {
        before = { allowed: org!.allowed, defaultRegion: org!.default_region };
        after = validateRegionsChange(change, before, known);
        const base = current?.content ?? builtInDefault();
        return {
          content: {
            ...base,
            allowed_regions: after.allowed,
            primary_region: homeFor(after.allowed, after.defaultRegion) ?? after.allowed[0],
            // A standby or weighted region that is no longer allowed goes with it.
            standby_region:
              base.standby_region && after.allowed.includes(base.standby_region) ? base.standby_region : null,
            failover_mode:
              base.failover_mode === 'active_standby' &&
              !(base.standby_region && after.allowed.includes(base.standby_region))
                ? 'fixed'
                : base.failover_mode,
          },
          defaultRegion: after.defaultRegion,
        };
      },
      { ifUnchanged: 'skip', reason: 'allowed regions changed (PATCH /v1/atlas/organizations)' },
    ).catch((e: unknown) => {
      if (e instanceof AppError && e.code === 'not_found') throw organizationNotFound(id);
      throw e;
    });
    await recordAudit(tx, {
      action: ORG_REGIONS_AUDIT_ACTION,
      targetType: 'organization',
      targetId: id,
      orgId: id,
      actorId,
      requestId: req.requestId,
      metadata: {
        before: { allowed_regions: before!.allowed, default_region: before!.defaultRegion },
        after: { allowed_regions: after!.allowed, default_region: after!.defaultRegion },
        ...(out.policy ? { policy_version: formatVersion(out.policy.version) } : {}),
        ...(out.clearedProjects.length ? { cleared_project_defaults: out.clearedProjects } : {}),
      },
    });
    return out.clearedProjects;
  });
  // Other gateways hear the triggers' NOTIFY; this one forgets at once, so its next request sees it.
  identityChanged([`org:${id}`, ...cleared.map((p) => `project:${p}`)]);
  // Read our own write from the primary (the bookmark makes a replica read wait for it too).
  return (await readPrimary((db) => detailOf(db, id)))!;
}
