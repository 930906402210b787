// API keys of the caller's organization: org admins create and revoke them; the secret is shown
// once. Region keys and global keys: docs/flows/region-resolution.md#region-keys-or-a-global-key.
import { z } from 'zod';
import { apiKeysOf, createApiKeyIn, revokeApiKeyOf } from '../../api-keys/api-keys';
import { API_KEY_SCOPES } from '../../api-keys/format';
import { apiKeyView, createdApiKeyView } from '../../api-keys/repository';
import { pageInput } from '../schemas';
import { orgAdminProcedure, router, viewerProcedure } from '../trpc';

const SCOPES_HELP = 'read: GET only; write: also changes (default); admin: also admin-only reads such as kubeconfigs';
const keyName = z.string().trim().min(1).max(80);
const keyScopes = z.array(z.enum(API_KEY_SCOPES)).min(1).max(3).default(['write']).describe(SCOPES_HELP);

export const apiKeysRouter = router({
  list: viewerProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'GET', path: '/api-keys', summary: 'Your organization’s API keys', tags: ['arc'] },
    })
    .input(z.object(pageInput(128)))
    .output(z.object({ data: z.array(apiKeyView), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => apiKeysOf(ctx, ctx.org.id, { limit: input.limit, cursor: input.cursor })),

  create: orgAdminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/api-keys',
        summary: 'Create an API key (the secret is shown once)',
        tags: ['arc'],
      },
      successStatus: 201,
    })
    .input(z.object({ name: keyName, region: z.string().optional(), scopes: keyScopes }))
    .output(createdApiKeyView)
    .mutation(({ ctx, input }) =>
      createApiKeyIn(
        ctx,
        { org: ctx.org, userId: ctx.identity.userId },
        { name: input.name, region: ctx.region.region, scopes: [...new Set(input.scopes)] },
      ),
    ),

  createGlobal: orgAdminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'POST',
        path: '/api-keys/global',
        summary:
          'Create an organization-wide API key (mk_global_…): for scripts that work across regions, at the global address',
        tags: ['arc'],
      },
      successStatus: 201,
    })
    .input(z.object({ name: keyName, scopes: keyScopes }))
    .output(createdApiKeyView)
    .mutation(({ ctx, input }) =>
      createApiKeyIn(
        ctx,
        { org: ctx.org, userId: ctx.identity.userId },
        { name: input.name, region: null, scopes: [...new Set(input.scopes)] },
      ),
    ),

  revoke: orgAdminProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'DELETE', path: '/api-keys/{id}', summary: 'Revoke an API key', tags: ['arc'] },
    })
    .input(z.object({ id: z.string() }))
    .output(apiKeyView)
    .mutation(({ ctx, input }) => revokeApiKeyOf(ctx, { org: ctx.org, userId: ctx.identity.userId }, input.id)),
});
