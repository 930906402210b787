// The organization's members: everyone in it sees the list; admins change roles and remove
// people (docs/flows/members-and-invitations.md).
import { z } from 'zod';
import { actorOf } from '../../audit/actor';
import { membersOf, memberView, removeMember, setMemberRole } from '../../members/members';
import { ORG_ROLES } from '../../members/roles';
import { pageInput } from '../schemas';
import { adminProcedure, router, viewerProcedure } from '../trpc';

const userId = z.string().regex(/^usr_[0-9A-Za-z]{26}$/, 'a user ID (usr_…)');

export const membersRouter = router({
  list: viewerProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'GET', path: '/members', summary: 'Your organization’s members and roles', tags: ['arc'] },
    })
    .input(z.object(pageInput(128)))
    .output(z.object({ data: z.array(memberView), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => membersOf(ctx, ctx.org.id, input)),

  setRole: adminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'PATCH',
        path: '/members/{user_id}',
        summary: 'Change a member’s role (admins; the last admin keeps theirs)',
        tags: ['arc'],
      },
    })
    .input(z.object({ user_id: userId, role: z.enum(ORG_ROLES) }))
    .output(memberView)
    .mutation(({ ctx, input }) => setMemberRole(ctx, actorOf(ctx.identity, ctx.org.id), input.user_id, input.role)),

  remove: adminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'DELETE',
        path: '/members/{user_id}',
        summary: 'Remove a member: their sessions and the API keys they created end at once',
        tags: ['arc'],
      },
    })
    .input(z.object({ user_id: userId }))
    .output(memberView.extend({ revoked_api_keys: z.number().int().describe('keys they had created, now revoked') }))
    .mutation(({ ctx, input }) => removeMember(ctx, actorOf(ctx.identity, ctx.org.id), input.user_id)),
});
