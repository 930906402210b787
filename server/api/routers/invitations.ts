// Invitations: admins create, list, resend and revoke them; the invitee previews and accepts one
// at the workspace's region with the link's token (docs/flows/members-and-invitations.md).
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../../auth/password';
import { env } from '../../env';
import { AppError } from '../../errors';
import { actorOf } from '../../audit/actor';
import { acceptInvitation, invitationPreview, previewInvitation } from '../../members/invitation-acceptance';
import {
  createdInvitationView,
  createInvitation,
  invitationsOf,
  invitationView,
  resendInvitation,
  revokeInvitation,
} from '../../members/invitations';
import { ORG_ROLES } from '../../members/roles';
import { clientAddress } from '../../net/client-address';
import { requestHost } from '../../net/request-origin';
import { hostRegion } from '../../region/host-region';
import { regionRegistry } from '../../region/registry';
import type { Context } from '../context';
import { pageInput } from '../schemas';
import { adminProcedure, publicProcedure, router } from '../trpc';

const invitationId = z.string().regex(/^inv_[0-9A-Za-z]{26}$/, 'an invitation ID (inv_…)');
// Parsed by the domain (one refusal for anything that is not a live link); bounded here.
const token = z.string().min(1).max(100);

/**
 * Passwords are typed only at a region's host (CONTRACT.md): an accept at the global address, or
 * at another region than the workspace's, is 421 wrong_region naming where to go.
 */
async function assertAtRegion(ctx: Context, slug: string, homeRegion: string): Promise<void> {
  const label = hostRegion(requestHost(ctx.req.headers), env().MERIDIAN_HOST).label;
  const gateway = env().MERIDIAN_GATEWAY_REGION;
  const here = label && label !== 'global' ? label : gateway !== 'global' ? gateway : null;
  if (here === homeRegion) return;
  const base = (await regionRegistry()).get(homeRegion)?.baseUrl;
  throw new AppError('wrong_region', `accept the invitation to ${slug} at its region, ${homeRegion}`, {
    extra: { region: homeRegion, ...(base ? { base_url: base } : {}) },
  });
}

export const invitationsRouter = router({
  list: adminProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'GET', path: '/invitations', summary: 'Open invitations (admins)', tags: ['arc'] },
    })
    .input(z.object(pageInput(128)))
    .output(z.object({ data: z.array(invitationView), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => invitationsOf(ctx, ctx.org.id, input)),

  create: adminProcedure
    .meta({
      region: 'gateway',
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/invitations',
        summary: 'Invite an email with a role (the single-use link is shown once)',
        tags: ['arc'],
      },
    })
    .input(z.object({ email: z.string().trim().toLowerCase().email().max(254), role: z.enum(ORG_ROLES) }))
    .output(createdInvitationView)
    .mutation(async ({ ctx, input }) => {
      const created = await createInvitation(ctx, actorOf(ctx.identity, ctx.org.id), ctx.org, input);
      ctx.response.status = 201;
      return created;
    }),

  resend: adminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'POST',
        path: '/invitations/{id}/resend',
        summary: 'A new link for an open invitation (the old one stops working), valid 7 days',
        tags: ['arc'],
      },
    })
    .input(z.object({ id: invitationId }))
    .output(createdInvitationView)
    .mutation(({ ctx, input }) => resendInvitation(ctx, actorOf(ctx.identity, ctx.org.id), input.id)),

  revoke: adminProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'DELETE', path: '/invitations/{id}', summary: 'Revoke an open invitation', tags: ['arc'] },
    })
    .input(z.object({ id: invitationId }))
    .output(invitationView)
    .mutation(({ ctx, input }) => revokeInvitation(ctx, actorOf(ctx.identity, ctx.org.id), input.id)),

  // For the accept page, through the server-side caller only: no REST path, so the token is never
  // in a URL query (a GET's input) that logs or proxies keep.
  preview: publicProcedure
    .meta({ region: 'gateway' })
    .input(z.object({ token }))
    .output(invitationPreview)
    .query(({ input }) => previewInvitation(input.token)),

  accept: publicProcedure
    .meta({
      region: 'gateway',
      // At another address (421, naming the region); a used, revoked or expired link (410); a
      // password for a workspace that requires SSO (403); the wrong password of an account (401).
      errors: ['wrong_region', 'invitation_invalid', 'sso_required', 'organization_suspended', 'unauthenticated'],
      openapi: {
        method: 'POST',
        path: '/invitations/accept',
        summary:
          'Accept an invitation at the workspace’s region: a new password, or the account’s own; none (403 ' +
          'sso_required if one is sent) for a new account of a workspace that requires single sign-on',
        tags: ['arc'],
      },
    })
    .input(
      z.object({
        token,
        password: z.string().min(1).max(MAX_PASSWORD_LENGTH).optional(),
        name: z.string().trim().max(100).optional(),
      }),
    )
    .output(
      z.object({
        organization: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
        email: z.string(),
        role: z.enum(ORG_ROLES),
        account: z.enum(['created', 'existing']),
        sign_in: z
          .enum(['password', 'sso'])
          .describe('how the person signs in to the workspace now: `sso` when it requires single sign-on'),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const preview = await previewInvitation(input.token);
      await assertAtRegion(ctx, preview.organization.slug, preview.region);
      const me = ctx.identity.kind === 'session' ? ctx.identity : undefined;
      return acceptInvitation(ctx, {
        token: input.token,
        password: input.password,
        name: input.name,
        signedInUserId: me?.userId,
        address: clientAddress(ctx.req.headers),
      });
    }),
});
