// Atlas workspace moves: list, one (steps, counts and digests per table), start (202: the move
// and its run), cancel (before the handover). The work is in server/moves.
import { z } from 'zod';
import { slugSchema } from '../../../directory/workspaces';
import {
  cancelMove,
  getMove,
  listMoves,
  MOVE_CANCEL_AUDIT_ACTION,
  MOVE_START_AUDIT_ACTION,
  MOVE_STATUSES,
  startMove,
} from '../../../moves/moves';
import { moveView } from '../../../moves/move-views';
import { pageInput } from '../../schemas';
import { operatorProcedure, router } from '../../trpc';

const regionCode = z.string().regex(/^[a-z]{3}[1-9][0-9]*$/, 'a region code, e.g. lax1');
const moveId = z.string().max(100);

export const atlasMovesRouter = router({
  list: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/moves',
        summary: 'Workspace moves, newest first (status, org by slug or ID)',
        tags: ['atlas'],
      },
    })
    .input(
      z.object({ status: z.enum(MOVE_STATUSES).optional(), org: z.string().max(100).optional(), ...pageInput(64) }),
    )
    .output(z.object({ data: z.array(moveView), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => listMoves(ctx, input)),

  get: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/moves/{id}',
        summary: 'One workspace move: its steps with timings, counts and digests per table, the read-only window',
        tags: ['atlas'],
      },
    })
    .input(z.object({ id: moveId }))
    .output(moveView)
    .query(({ ctx, input }) => getMove(ctx, input.id)),

  start: operatorProcedure
    .meta({
      region: 'gateway',
      successStatus: 202,
      audit: MOVE_START_AUDIT_ACTION,
      openapi: {
        method: 'POST',
        path: '/atlas/moves',
        summary:
          'Move a workspace to another home region (202: the move and its run; Location is the move). 404 unknown slug, 400 unknown region, 403 region not allowed for the organization, 409 target not active or a move already open. Audited.',
        tags: ['atlas'],
      },
    })
    .input(z.object({ slug: slugSchema, to_region: regionCode }))
    .output(moveView)
    .mutation(async ({ ctx, input }) => {
      const move = await startMove(ctx, { userId: ctx.identity.userId }, input);
      ctx.response.status = 202;
      ctx.req.setHeader('Location', `/v1/atlas/moves/${move.id}`);
      return move;
    }),

  cancel: operatorProcedure
    .meta({
      region: 'gateway',
      successStatus: 202,
      audit: MOVE_CANCEL_AUDIT_ACTION,
      openapi: {
        method: 'POST',
        path: '/atlas/moves/{id}/cancel',
        summary:
          'Cancel a move before its handover (202: the run stops at its next step and the workspace is read-write at its source again). 409 after the handover or once ended. Audited.',
        tags: ['atlas'],
      },
    })
    .input(z.object({ id: moveId }))
    .output(moveView)
    .mutation(async ({ ctx, input }) => {
      const move = await cancelMove(ctx, { userId: ctx.identity.userId }, input.id);
      ctx.response.status = 202;
      return move;
    }),
});
