// Atlas workspace moves: list, one (its step timeline, counts and digests per table), start
// (202: the move and its run), cancel (before the handover). The work is in server/moves.
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
import { pageInput } from '../../schemas';
import { operatorProcedure, router } from '../../trpc';

const Move = z.object({
  id: z.string(),
  slug: z.string(),
  org_id: z.string(),
  org_name: z.string(),
  from_region: z.string(),
  to_region: z.string(),
  status: z.enum(MOVE_STATUSES),
  step: z.string().nullable(),
  error: z.string().nullable(),
  run_id: z.string().nullable(),
  started_by: z.object({ id: z.string(), email: z.string() }).nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  read_only: z
    .object({ started_at: z.string().nullable(), ended_at: z.string().nullable(), seconds: z.number().nullable() })
    .describe('The read-only window: from the switch to read-only until the workspace is writable again'),
  handover_at: z.string().nullable().describe('The point of no return (the target accepted): no cancel after it'),
  cancel_requested_at: z.string().nullable(),
  cancellable: z.boolean(),
  snapshot_lsn: z.string().nullable(),
  snapshot_at: z.string().nullable(),
  bundle_bytes: z.number().nullable(),
  tables: z.array(
    z.object({
      name: z.string(),
      count: z.number(),
      digest: z.string(),
      verified_count: z.number().nullable(),
      verified_digest: z.string().nullable(),
      match: z.boolean().nullable(),
    }),
  ),
  steps: z.array(
    z.object({
      name: z.string(),
      status: z.string(),
      attempts: z.number(),
      error: z.string().nullable(),
      started_at: z.string().nullable(),
      finished_at: z.string().nullable(),
      duration_ms: z.number().nullable(),
    }),
  ),
});

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
    .output(z.object({ data: z.array(Move), next_cursor: z.string().nullable() }))
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
    .output(Move)
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
    .output(Move)
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
    .output(Move)
    .mutation(async ({ ctx, input }) => {
      const move = await cancelMove(ctx, { userId: ctx.identity.userId }, input.id);
      ctx.response.status = 202;
      return move;
    }),
});
