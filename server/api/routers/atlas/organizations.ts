// Atlas organizations: every one, one in detail, the operator's change of its allowed and
// default regions, and its lifecycle: create, suspend, reactivate, offboard, cancel the
// offboarding (all audited). The work is in server/organizations.
import { z } from 'zod';
import { ORG_REGIONS_AUDIT_ACTION, setOrganizationRegions } from '../../../organizations/allowed-regions';
import {
  createdOrganizationView,
  createOrganization,
  createOrganizationInput,
  ORG_CREATE_AUDIT_ACTION,
} from '../../../organizations/create';
import {
  cancelOffboarding,
  confirmSchema,
  ORG_CANCEL_OFFBOARD_AUDIT_ACTION,
  ORG_OFFBOARD_AUDIT_ACTION,
  offboardingView,
  startOffboarding,
} from '../../../organizations/offboarding';
import {
  ORG_REINSTATE_AUDIT_ACTION,
  ORG_SUSPEND_AUDIT_ACTION,
  setOrganizationSuspended,
} from '../../../organizations/suspension';
import {
  assertOrganization,
  listOrganizations,
  organizationDetail,
  organizationDetailView,
  organizationNotFound,
  organizationSummaryView,
} from '../../../organizations/operator-view';
import { isId } from '../../../ids';
import {
  removeSsoConfig,
  saveSsoConfig,
  SSO_OPERATOR_AUDIT,
  ssoConfigInput,
  ssoConfigOf,
  ssoConfigView,
} from '../../../sso/config';
import { pageInput } from '../../schemas';
import { operatorProcedure, router } from '../../trpc';

const regionCode = z.string().max(64);

export const atlasOrganizationsRouter = router({
  list: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/organizations',
        summary: 'Every organization with its regions, members, clusters by status and active API keys',
        tags: ['atlas'],
      },
    })
    .input(
      z.object({
        q: z.string().max(100).optional().describe('Search: part of the slug or name, or an organization ID'),
        region: regionCode.optional().describe('Only organizations allowed in this region'),
        ...pageInput(200),
      }),
    )
    .output(z.object({ data: z.array(organizationSummaryView), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => listOrganizations(ctx, input)),

  get: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/organizations/{id}',
        summary: 'One organization, with its live clusters and active API keys per region',
        tags: ['atlas'],
      },
    })
    .input(z.object({ id: z.string().max(64) }))
    .output(organizationDetailView)
    .query(({ ctx, input }) => organizationDetail(ctx, input.id)),

  updateRegions: operatorProcedure
    .meta({
      region: 'gateway',
      audit: ORG_REGIONS_AUDIT_ACTION,
      openapi: {
        method: 'PATCH',
        path: '/atlas/organizations/{id}',
        summary:
          'Set an organization’s allowed regions and/or default region (null: none); audited. ' +
          '409 conflict while a region to remove holds live clusters (error.details.regions says which)',
        tags: ['atlas'],
      },
    })
    .input(
      z.object({
        id: z.string().max(64),
        allowed_regions: z.array(regionCode).min(1, 'at least one region').max(64).optional(),
        default_region: regionCode.nullable().optional(),
      }),
    )
    .output(organizationDetailView)
    .mutation(({ ctx, input }) =>
      setOrganizationRegions(ctx, ctx.identity.userId, input.id, {
        allowed_regions: input.allowed_regions,
        default_region: input.default_region,
      }),
    ),

  create: operatorProcedure
    .meta({
      region: 'gateway',
      successStatus: 201,
      audit: ORG_CREATE_AUDIT_ACTION,
      openapi: {
        method: 'POST',
        path: '/atlas/organizations',
        summary:
          'Create an organization (201): its home region reserves the slug in the directory, then the organization, ' +
          'its regions, first routing policy and first admin are created and the slug activated. A new admin gets a ' +
          'one-time "set your password" link (7 days), answered here once. 409 slug_taken when the slug is held in ' +
          'any region; 400 invalid_region for an unknown region; 409 region_draining for a home region that takes ' +
          'no new workspaces. Audited.',
        tags: ['atlas'],
      },
    })
    .input(createOrganizationInput)
    .output(createdOrganizationView)
    .mutation(async ({ ctx, input }) => {
      const created = await createOrganization(
        ctx,
        { actorId: ctx.identity.userId, audit: ORG_CREATE_AUDIT_ACTION },
        input,
      );
      ctx.response.status = 201;
      ctx.req.setHeader('Location', `/v1/atlas/organizations/${created.organization.id}`);
      ctx.req.setHeader('Cache-Control', 'no-store'); // the one-time link
      return created;
    }),

  suspend: operatorProcedure
    .meta({
      region: 'gateway',
      audit: ORG_SUSPEND_AUDIT_ACTION,
      openapi: {
        method: 'POST',
        path: '/atlas/organizations/{id}/suspend',
        summary:
          'Suspend an organization, with a reason: its API keys, sessions and sign-ins answer 403 ' +
          'organization_suspended and the directory resolves its slug like an unknown one. 409 while it moves or is ' +
          'being offboarded. Audited (operator.organization.suspend).',
        tags: ['atlas'],
      },
    })
    .input(z.object({ id: z.string().max(64), reason: z.string().trim().min(1).max(500) }))
    .output(organizationDetailView)
    .mutation(async ({ ctx, input }) => {
      if (!isId(input.id, 'org')) throw organizationNotFound(input.id);
      await setOrganizationSuspended(ctx, ctx.identity.userId, input.id, true, input.reason);
      return organizationDetail(ctx, input.id);
    }),

  reactivate: operatorProcedure
    .meta({
      region: 'gateway',
      audit: ORG_REINSTATE_AUDIT_ACTION,
      openapi: {
        method: 'POST',
        path: '/atlas/organizations/{id}/reactivate',
        summary:
          'Reactivate a suspended organization, with a reason: its keys, sessions and slug work again. Audited ' +
          '(operator.organization.reinstate).',
        tags: ['atlas'],
      },
    })
    .input(z.object({ id: z.string().max(64), reason: z.string().trim().min(1).max(500) }))
    .output(organizationDetailView)
    .mutation(async ({ ctx, input }) => {
      if (!isId(input.id, 'org')) throw organizationNotFound(input.id);
      await setOrganizationSuspended(ctx, ctx.identity.userId, input.id, false, input.reason);
      return organizationDetail(ctx, input.id);
    }),

  offboard: operatorProcedure
    .meta({
      region: 'gateway',
      successStatus: 202,
      audit: ORG_OFFBOARD_AUDIT_ACTION,
      openapi: {
        method: 'POST',
        path: '/atlas/organizations/{id}/offboard',
        summary:
          'Offboard an organization (202), confirmed by its slug: read-only at once (writes answer 409 ' +
          'organization_offboarding), its clusters deleted through delete-cluster runs, its data purged after the ' +
          'grace period (7 days), its slug then released. 400 when confirm is not the slug; 409 unless active. Audited.',
        tags: ['atlas'],
      },
    })
    .input(z.object({ id: z.string().max(64), confirm: confirmSchema }))
    .output(offboardingView)
    .mutation(async ({ ctx, input }) => {
      const out = await startOffboarding(ctx, { userId: ctx.identity.userId, operator: true }, input.id, input.confirm);
      ctx.response.status = 202;
      return out;
    }),

  cancelOffboard: operatorProcedure
    .meta({
      region: 'gateway',
      audit: ORG_CANCEL_OFFBOARD_AUDIT_ACTION,
      openapi: {
        method: 'POST',
        path: '/atlas/organizations/{id}/cancel-offboard',
        summary:
          'Cancel an offboarding during its grace period: writable again (deleted clusters stay deleted). 409 when ' +
          'not being offboarded or the grace period is over. Audited.',
        tags: ['atlas'],
      },
    })
    .input(z.object({ id: z.string().max(64) }))
    .output(offboardingView)
    .mutation(({ ctx, input }) => cancelOffboarding(ctx, { userId: ctx.identity.userId, operator: true }, input.id)),
  sso: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/organizations/{id}/sso',
        summary: 'An organization’s single sign-on (null: none); never the client secret',
        tags: ['atlas'],
      },
    })
    .input(z.object({ id: z.string().max(64) }))
    .output(ssoConfigView.nullable())
    .query(({ ctx, input }) => assertOrganization(ctx, input.id).then(() => ssoConfigOf(ctx, input.id))),

  updateSso: operatorProcedure
    .meta({
      region: 'gateway',
      audit: SSO_OPERATOR_AUDIT.configure,
      openapi: {
        method: 'PUT',
        path: '/atlas/organizations/{id}/sso',
        summary: 'Set up or change an organization’s single sign-on for it; audited',
        tags: ['atlas'],
      },
    })
    .input(ssoConfigInput.extend({ id: z.string().max(64) }))
    .output(ssoConfigView)
    .mutation(async ({ ctx, input: { id, ...config } }) => {
      await assertOrganization(ctx, id); // 404 for an organization that does not exist
      return saveSsoConfig(ctx, { userId: ctx.identity.userId, operator: true }, id, config);
    }),

  removeSso: operatorProcedure
    .meta({
      region: 'gateway',
      audit: SSO_OPERATOR_AUDIT.remove,
      openapi: {
        method: 'DELETE',
        path: '/atlas/organizations/{id}/sso',
        summary: 'Turn an organization’s single sign-on off (e.g. a provider that locks its admins out); audited',
        tags: ['atlas'],
      },
    })
    .input(z.object({ id: z.string().max(64) }))
    .output(z.object({ removed: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await assertOrganization(ctx, input.id);
      return removeSsoConfig(ctx, { userId: ctx.identity.userId, operator: true }, input.id);
    }),
});
