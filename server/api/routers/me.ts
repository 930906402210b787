// GET /v1/me: who is calling, in which organization, with which regions.
import { z } from 'zod';
import { membershipsOf } from '../../auth/users';
import { read, write } from '../../db/access';
import { AppError } from '../../errors';
import { isRegionCode } from '../../region/code';
import { orgProcedure, router } from '../trpc';

const Org = z.object({
  id: z.string(),
  slug: z.string(),
  default_region: z.string().nullable(),
  allowed_regions: z.array(z.string()),
});

const Settings = z.object({ theme: z.enum(['system', 'light', 'dark']), default_region: z.string().nullable() });

export const meRouter = router({
  updateSettings: orgProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'PATCH', path: '/me/settings', summary: 'Your theme and default region', tags: ['arc'] },
    })
    .input(
      z
        .object({
          theme: z.enum(['system', 'light', 'dark']).optional(),
          default_region: z.string().nullable().optional(),
        })
        .refine((v) => v.theme !== undefined || v.default_region !== undefined, 'send theme and/or default_region'),
    )
    .output(Settings)
    .mutation(async ({ ctx, input }) => {
      const id = ctx.identity;
      if (id.kind !== 'session') throw new AppError('forbidden', 'settings belong to a signed-in user, not an API key');
      const region = input.default_region;
      if (region) {
        if (!isRegionCode(region)) throw new AppError('invalid_region', `"${region}" is not a region code`);
        if (!id.org?.allowedRegions.includes(region)) {
          throw new AppError('region_not_allowed', `${region} is not one of your organization’s regions`);
        }
      }
      const data = {
        ...(input.theme ? { theme: input.theme } : {}),
        ...(region !== undefined ? { defaultRegion: region } : {}),
      };
      const row = await write(ctx, (tx) =>
        tx.userSettings.upsert({ where: { userId: id.userId }, create: { userId: id.userId, ...data }, update: data }),
      );
      return { theme: row.theme, default_region: row.defaultRegion };
    }),

  get: orgProcedure
    .meta({ region: 'gateway', openapi: { method: 'GET', path: '/me', summary: 'The caller', tags: ['arc'] } })
    .input(z.object({}).optional())
    .output(
      z.object({
        kind: z.enum(['session', 'api_key']),
        user: z.object({ id: z.string(), email: z.string(), platform_operator: z.boolean() }).nullable(),
        api_key: z.object({ id: z.string(), region: z.string() }).nullable(),
        organization: Org.nullable(),
        role: z.enum(['member', 'admin']).nullable(),
        organizations: z.array(Org.extend({ role: z.enum(['member', 'admin']) })),
        settings: Settings.nullable().describe('null for an API key'),
        project: z
          .object({ id: z.string(), name: z.string(), default_region: z.string().nullable() })
          .nullable()
          .describe('the project this session works in (its default region comes first in the cascade)'),
      }),
    )
    .query(async ({ ctx }) => {
      const id = ctx.identity;
      const org = (o: { id: string; slug: string; defaultRegion: string | null; allowedRegions: string[] }) => ({
        id: o.id,
        slug: o.slug,
        default_region: o.defaultRegion,
        allowed_regions: o.allowedRegions,
      });
      if (id.kind === 'api_key') {
        return {
          kind: 'api_key' as const,
          user: null,
          api_key: { id: id.keyId, region: id.region },
          organization: org(id.org),
          role: null,
          organizations: [],
          settings: null,
          project: null,
        };
      }
      if (id.kind !== 'session') throw new Error('unreachable: orgProcedure admits only signed-in callers');
      const [all, settings] = await read(ctx, (db) =>
        Promise.all([membershipsOf(db, id.userId), db.userSettings.findUnique({ where: { userId: id.userId } })]),
      );
      return {
        kind: 'session' as const,
        user: { id: id.userId, email: id.email, platform_operator: id.platformOperator },
        api_key: null,
        organization: id.org ? org(id.org) : null,
        role: id.orgRole,
        organizations: all.map((m) => ({ ...org(m.org), role: m.role })),
        settings: { theme: settings?.theme ?? 'system', default_region: settings?.defaultRegion ?? null },
        project: id.project
          ? { id: id.project.id, name: id.project.name, default_region: id.project.defaultRegion }
          : null,
      };
    }),
});
