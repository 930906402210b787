// API keys of the caller's organization: org admins (signed in) create and revoke them. A key's
// region is where its requests resolve: the cascade decides it, so a single-region organization
// never names one. The secret is shown once, in the create response.
import { z } from 'zod';
import { createApiKey, listApiKeys, revokeApiKey } from '../../api-keys/repository';
import { idempotentWrite, read, write } from '../../db/access';
import { AppError } from '../../errors';
import { requireOrg, type Context } from '../context';
import { orgProcedure, router } from '../trpc';

const Key = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

function requireAdmin(ctx: Context) {
  const org = requireOrg(ctx);
  if (ctx.identity.kind !== 'session' || ctx.identity.orgRole !== 'admin') {
    throw new AppError('forbidden', 'only organization admins, signed in, manage API keys');
  }
  return { org, userId: ctx.identity.userId };
}

export const apiKeysRouter = router({
  list: orgProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'GET', path: '/api-keys', summary: 'Your organization’s API keys', tags: ['arc'] },
    })
    .input(z.object({}).optional())
    .output(z.object({ data: z.array(Key), next_cursor: z.null() }))
    .query(async ({ ctx }) => {
      const org = requireOrg(ctx);
      return { data: await read(ctx, (db) => listApiKeys(db, org.id)), next_cursor: null };
    }),

  create: orgProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/api-keys',
        summary: 'Create an API key (the secret is shown once)',
        tags: ['arc'],
      },
      successStatus: 201,
    })
    .input(z.object({ name: z.string().trim().min(1).max(80), region: z.string().optional() }))
    .output(Key.extend({ key: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const { org, userId } = requireAdmin(ctx);
      const region = ctx.region!.region; // resolved by the cascade, already checked against the org's regions
      return idempotentWrite(ctx, { op: 'api-keys.create', name: input.name, region }, async (tx) => ({
        status: 201,
        body: await createApiKey(tx, org.id, { name: input.name, region, createdById: userId }),
      }));
    }),

  revoke: orgProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'DELETE', path: '/api-keys/{id}', summary: 'Revoke an API key', tags: ['arc'] },
    })
    .input(z.object({ id: z.string() }))
    .output(Key)
    .mutation(async ({ ctx, input }) => {
      const { org } = requireAdmin(ctx);
      const revoked = await write(ctx, (tx) => revokeApiKey(tx, org.id, input.id));
      if (!revoked) throw new AppError('not_found', `no API key ${input.id}`);
      return revoked;
    }),
});
