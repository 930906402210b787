// Arc projects: list, create (with an optional default region), get, change the default region.
import { z } from 'zod';
import { idempotentWrite, read, write } from '../../db/access';
import type { OrgContext } from '../../auth/identity';
import { AppError } from '../../errors';
import { isRegionCode } from '../../region/code';
import { createProject, getProject, listProjects, setProjectRegion } from '../../projects/repository';
import { requireOrg } from '../context';
import { orgProcedure, router } from '../trpc';

/** A project's default region must be one of the organization's. */
function checkedRegion(org: OrgContext, region: string | null): string | null {
  if (region === null) return null;
  if (!isRegionCode(region)) throw new AppError('invalid_region', `"${region}" is not a region code`);
  if (!org.allowedRegions.includes(region)) {
    throw new AppError('region_not_allowed', `${region} is not one of your organization’s regions`);
  }
  return region;
}

const Project = z.object({
  id: z.string(),
  name: z.string(),
  default_region: z.string().nullable(),
  created_at: z.string(),
});

export const projectsRouter = router({
  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/projects', summary: 'Your organization’s projects', tags: ['arc'] } })
    .input(
      z.object({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.string().max(64).optional(),
        region: z.string().optional(),
      }),
    )
    .output(z.object({ data: z.array(Project), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => {
      const org = requireOrg(ctx);
      return read(ctx, (db) => listProjects(db, org.id, { limit: input.limit, cursor: input.cursor }));
    }),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/projects/{id}', summary: 'One project', tags: ['arc'] } })
    .input(z.object({ id: z.string() }))
    .output(Project)
    .query(async ({ ctx, input }) => {
      const org = requireOrg(ctx);
      const project = await read(ctx, (db) => getProject(db, org.id, input.id));
      if (!project) throw new AppError('not_found', `no project ${input.id}`);
      return project;
    }),

  create: orgProcedure
    .meta({
      openapi: { method: 'POST', path: '/projects', summary: 'Create a project', tags: ['arc'] },
      successStatus: 201,
    })
    .input(
      z.object({
        name: z
          .string()
          .trim()
          .min(1)
          .max(63)
          .regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes'),
        default_region: z.string().nullable().optional(),
        region: z.string().optional(),
      }),
    )
    .output(Project)
    .mutation(async ({ ctx, input }) => {
      const org = requireOrg(ctx);
      const defaultRegion = checkedRegion(org, input.default_region ?? null);
      return idempotentWrite(ctx, { op: 'projects.create', input }, async (tx) => {
        const exists = await tx.project.findFirst({ where: { orgId: org.id, name: input.name }, select: { id: true } });
        if (exists) throw new AppError('conflict', `a project named ${input.name} exists already`);
        return { status: 201, body: await createProject(tx, org.id, { name: input.name, defaultRegion }) };
      });
    }),

  update: orgProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'PATCH',
        path: '/projects/{id}',
        summary: 'Change a project’s default region (null clears it)',
        tags: ['arc'],
      },
    })
    .input(z.object({ id: z.string(), default_region: z.string().nullable() }))
    .output(Project)
    .mutation(async ({ ctx, input }) => {
      const org = requireOrg(ctx);
      const region = checkedRegion(org, input.default_region);
      const project = await write(ctx, (tx) => setProjectRegion(tx, org.id, input.id, region));
      if (!project) throw new AppError('not_found', `no project ${input.id}`);
      return project;
    }),
});
