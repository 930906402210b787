// Creating an organization (an operator in Atlas or the API, or a person signing up): its home
// region's cell reserves the slug in the directory, the organization, its regions, its first
// routing policy version and its first admin are written in one transaction, then the slug is
// activated; a failed create releases it (docs/flows/workspace-lifecycle.md).
import { z } from 'zod';
import { recordAudit, type AuditAction } from '../audit/audit';
import { withReservedSlug } from '../cell/workspaces';
import { write } from '../db/access';
import { uniqueViolation } from '../db/errors';
import { readPrimary } from '../db/primary-reads';
import type { DataRequest } from '../db/request-state';
import { slugSchema } from '../directory/workspaces';
import { AppError } from '../errors';
import { newId } from '../ids';
import { regionRegistry } from '../region/registry';
import { builtInDefault } from '../routing/policy';
import { publishInTx } from '../routing/publish';
import { addFirstAdmin, emailSchema, type FirstAdmin } from './first-admin';
import { detailOf, organizationDetailView } from './operator-view';

export const ORG_CREATE_AUDIT_ACTION = 'operator.organization.create' as const;

const regionCode = z.string().regex(/^[a-z]{3}[1-9][0-9]*$/, 'a region code, e.g. sfo1');

export const createOrganizationInput = z.object({
  slug: slugSchema.describe('The workspace: 2–63 of a–z, 0–9 and -, unique across every region'),
  name: z.string().trim().min(1).max(100),
  home_region: regionCode.describe('Where the directory sends its people; its cell reserves the slug'),
  allowed_regions: z
    .array(regionCode)
    .min(1)
    .max(64)
    .optional()
    .describe('Regions it may use (default: the home region alone); must include the home region'),
  default_region: regionCode
    .nullable()
    .optional()
    .describe('Where its mutations go when they name none (default: the home region for a single-region organization)'),
  admin_email: emailSchema.describe('The first admin: an existing user, or a new one who gets a one-time link'),
  admin_name: z.string().trim().min(1).max(100).optional(),
});
export type CreateOrganizationInput = z.infer<typeof createOrganizationInput>;

export const createdOrganizationView = z.object({
  organization: organizationDetailView,
  first_admin: z.object({
    user_id: z.string(),
    email: z.string(),
    existing_user: z.boolean(),
    setup_link: z
      .object({ url: z.string(), expires_at: z.string() })
      .nullable()
      .describe('Shown once: the new admin sets their password there (7 days, one use)'),
  }),
});
export type CreatedOrganization = z.infer<typeof createdOrganizationView>;

/** The checks that need no database beyond the region registry (pure over its inputs). */
export function planRegions(
  input: Pick<CreateOrganizationInput, 'home_region' | 'allowed_regions' | 'default_region'>,
  regions: ReadonlyMap<string, { status: string }>,
): { home: string; allowed: string[]; defaultRegion: string | null } {
  const home = input.home_region;
  const allowed = [...new Set(input.allowed_regions ?? [home])].sort();
  const unknown = [...new Set([home, ...allowed, ...(input.default_region ? [input.default_region] : [])])].filter(
    (r) => !regions.has(r),
  );
  if (unknown.length) throw new AppError('invalid_region', `unknown regions: ${unknown.join(', ')}`);
  if (!allowed.includes(home)) {
    throw new AppError('invalid_request', `the home region ${home} must be one of the allowed regions`, {
      extra: { details: [{ path: ['allowed_regions'], message: `must include ${home}` }] },
    });
  }
  if (regions.get(home)!.status !== 'active') {
    throw new AppError('region_draining', `${home} is ${regions.get(home)!.status}: it takes no new workspaces`);
  }
  const defaultRegion = input.default_region !== undefined ? input.default_region : allowed.length === 1 ? home : null;
  if (defaultRegion !== null && !allowed.includes(defaultRegion)) {
    throw new AppError('invalid_request', `the default region ${defaultRegion} must be one of the allowed regions`, {
      extra: { details: [{ path: ['default_region'], message: `not among ${allowed.join(', ')}` }] },
    });
  }
  return { home, allowed, defaultRegion };
}

export interface Creator {
  /** The operator, or null for a sign-up (the new user is then the actor). */
  actorId: string | null;
  audit: AuditAction;
  /** A sign-up's own password (argon2 hash): no setup link then. */
  adminPasswordHash?: string;
}

/**
 * Creates the organization. 409 `slug_taken` when the slug is held in any region (by the
 * directory, or by this database: a unique violation, after which the slug is released again).
 */
export async function createOrganization(
  req: DataRequest,
  by: Creator,
  input: CreateOrganizationInput,
): Promise<CreatedOrganization> {
  const registry = await regionRegistry();
  const plan = planRegions(input, new Map(registry.all().map((r) => [r.code, r])));
  const orgId = newId('org');
  const linkBase = registry.get(plan.home)!.baseUrl;
  const firstAdmin = await withReservedSlug(plan.home, input.slug, () =>
    write(req, async (tx): Promise<FirstAdmin> => {
      await tx.organization.create({
        data: {
          id: orgId,
          slug: input.slug,
          name: input.name,
          defaultRegion: plan.defaultRegion,
          homeRegion: plan.home,
          allowedRegions: { create: plan.allowed.map((region) => ({ region })) },
        },
      });
      // Its first routing policy version, as the seed's organizations get theirs
      // (server/routing/initial-policies.ts): its regions, the home region as the primary.
      await publishInTx(
        tx,
        { requestId: req.requestId, actorId: by.actorId },
        orgId,
        () => ({ content: { ...builtInDefault(), allowed_regions: plan.allowed, primary_region: plan.home } }),
        { ifUnchanged: 'skip', reason: 'initial version: the organization’s regions, mode fixed', audit: false },
      );
      const admin = await addFirstAdmin(tx, {
        orgId,
        email: input.admin_email,
        name: input.admin_name,
        passwordHash: by.adminPasswordHash,
        createdById: by.actorId,
        linkBase,
      });
      await recordAudit(tx, {
        action: by.audit,
        targetType: 'organization',
        targetId: orgId,
        orgId,
        actorId: by.actorId ?? admin.user_id,
        region: plan.home,
        requestId: req.requestId,
        metadata: {
          slug: input.slug,
          name: input.name,
          home_region: plan.home,
          allowed_regions: plan.allowed,
          default_region: plan.defaultRegion,
          first_admin: admin.user_id,
          existing_user: admin.existing_user,
          setup_link: admin.setup_link !== null,
        },
      });
      return admin;
    }).catch((e: unknown) => {
      if (uniqueViolation(e)?.startsWith('organizations_slug')) {
        throw new AppError('slug_taken', `the workspace "${input.slug}" is taken: choose another slug`);
      }
      throw e;
    }),
  );
  const organization = (await readPrimary((db) => detailOf(db, orgId)))!;
  return { organization, first_admin: firstAdmin };
}
