'use server';
// Server actions over members and invitations (change a role, remove, invite, resend, revoke,
// accept): each runs its procedure through the request middleware.
import type { inferRouterInputs } from '@trpc/server';
import { serverAction } from '../adapters/action';
import type { AppRouter } from '../root';

type Members = inferRouterInputs<AppRouter>['members'];
type Invitations = inferRouterInputs<AppRouter>['invitations'];

export const setMemberRole = serverAction((api, input: Members['setRole']) => api.members.setRole(input));

export const removeMember = serverAction((api, input: Members['remove']) => api.members.remove(input));

export const createInvitation = serverAction((api, input: Invitations['create']) => api.invitations.create(input));

export const resendInvitation = serverAction((api, input: Invitations['resend']) => api.invitations.resend(input));

export const revokeInvitation = serverAction((api, input: Invitations['revoke']) => api.invitations.revoke(input));

export const acceptInvitation = serverAction((api, input: Invitations['accept']) => api.invitations.accept(input));
