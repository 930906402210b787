// Atlas organizations: every one, one in detail, and the operator's change of its allowed and
// default regions (audited). The work is in server/organizations.
import { z } from 'zod';
import { ORG_REGIONS_AUDIT_ACTION, setOrganizationRegions } from '../../../organizations/allowed-regions';
import {
  listOrganizations,
  organizationDetail,
  organizationDetailView,
  organizationSummaryView,
} from '../../../organizations/operator-view';
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
});
