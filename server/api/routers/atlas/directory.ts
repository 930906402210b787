// Atlas: the global directory's workspaces (slug → region), for operators.
import { z } from 'zod';
import { directoryWorkspaceView, listDirectoryWorkspaces } from '../../../directory/atlas';
import { pageInput } from '../../schemas';
import { operatorProcedure, router } from '../../trpc';

export const atlasDirectoryRouter = router({
  workspaces: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/directory/workspaces',
        summary: 'The directory: every workspace slug with its region, status and last change',
        tags: ['atlas'],
      },
    })
    .input(
      z.object({
        region: z
          .string()
          .regex(/^[a-z]{3}[1-9][0-9]*$/)
          .optional(),
        ...pageInput(64),
      }),
    )
    .output(z.object({ data: z.array(directoryWorkspaceView), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => listDirectoryWorkspaces(ctx, input)),
});
