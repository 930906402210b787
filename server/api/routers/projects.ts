// Arc projects: list, create (with an optional default region), get, change the default region,
// delete (one with no live cluster).
import { z } from 'zod';
import { actorOf } from '../../audit/actor';
import { deleteProject } from '../../projects/deletion';
import { createProjectIn, projectOf, projectsOf, setProjectDefaultRegion } from '../../projects/projects';
import { projectView } from '../../projects/repository';
import { pageInput, resourceName } from '../schemas';
import { memberProcedure, router, viewerProcedure } from '../trpc';

export const projectsRouter = router({
  list: viewerProcedure
    .meta({ openapi: { method: 'GET', path: '/projects', summary: 'Your organization’s projects', tags: ['arc'] } })
    .input(
      z.object({
        ...pageInput(),
        region: z.string().optional(),
      }),
    )
    .output(z.object({ data: z.array(projectView), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => projectsOf(ctx, ctx.org.id, { limit: input.limit, cursor: input.cursor })),

  get: viewerProcedure
    .meta({ openapi: { method: 'GET', path: '/projects/{id}', summary: 'One project', tags: ['arc'] } })
    .input(z.object({ id: z.string() }))
    .output(projectView)
    .query(({ ctx, input }) => projectOf(ctx, ctx.org.id, input.id)),

  create: memberProcedure
    .meta({
      openapi: { method: 'POST', path: '/projects', summary: 'Create a project', tags: ['arc'] },
      successStatus: 201,
    })
    .input(
      z.object({
        name: resourceName(63, /^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes'),
        default_region: z.string().nullable().optional(),
        region: z.string().optional(),
      }),
    )
    .output(projectView)
    .mutation(({ ctx, input }) => createProjectIn(ctx, ctx.org, input, actorOf(ctx.identity, ctx.org.id))),

  update: memberProcedure
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
    .output(projectView)
    .mutation(({ ctx, input }) =>
      setProjectDefaultRegion(ctx, ctx.org, input.id, input.default_region, actorOf(ctx.identity, ctx.org.id)),
    ),

  delete: memberProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'DELETE',
        path: '/projects/{id}',
        summary: 'Delete a project that holds no live cluster (409 otherwise)',
        tags: ['arc'],
      },
    })
    .input(z.object({ id: z.string() }))
    .output(projectView)
    .mutation(({ ctx, input }) => deleteProject(ctx, ctx.org, input.id, actorOf(ctx.identity, ctx.org.id))),
});
