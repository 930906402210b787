// Auth.js (next-auth v5) for the browser: email + password, JWT sessions that carry the user and
// the organization they act in. Roles and regions are not trusted from the token: the request
// middleware reloads them on every request (server/api/middleware/session.ts).
import NextAuth, { CredentialsSignin } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { primary } from '../db/client';
import { authSecret } from '../env';
import { isAppError } from '../errors';
import { checkCredentials } from './sign-in';
import { membershipsOf } from './users';

class RateLimited extends CredentialsSignin {
  code = 'rate_limited';
}

export const SESSION_MAX_AGE = 12 * 60 * 60;

export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth({
  secret: authSecret(),
  trustHost: true, // behind `next start` the Host header names the gateway
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE },
  pages: { signIn: '/sign-in' },
  providers: [
    Credentials({
      credentials: { email: { label: 'Email' }, password: { label: 'Password', type: 'password' } },
      async authorize(raw, request) {
        const address = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'local';
        try {
          return await checkCredentials(raw, address);
        } catch (e) {
          if (isAppError(e) && e.code === 'rate_limited') throw new RateLimited();
          throw e;
        }
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user, trigger, session }) {
      if (user?.id) {
        token.uid = user.id;
        token.org = (await membershipsOf(primary(), user.id))[0]?.org.id ?? null;
      }
      if (trigger === 'update' && typeof (session as { orgId?: unknown })?.orgId === 'string' && token.uid) {
        const wanted = (session as { orgId: string }).orgId;
        const mine = await membershipsOf(primary(), String(token.uid));
        if (mine.some((m) => m.org.id === wanted) && wanted !== token.org) {
          token.org = wanted; // never trust the client's pick
          token.project = null; // a project belongs to one organization
        }
      }
      const pick = (session as { projectId?: unknown } | undefined)?.projectId;
      if (trigger === 'update' && (pick === null || typeof pick === 'string') && token.uid) {
        if (pick === null) token.project = null;
        else if (typeof token.org === 'string') {
          const mine = await primary().project.findFirst({
            where: { id: pick, orgId: token.org },
            select: { id: true },
          });
          if (mine) token.project = mine.id; // only a project of the organization the session acts in
        }
      }
      return token;
    },
    session({ session, token }) {
      return { ...session, userId: token.uid as string, orgId: (token.org as string | null) ?? null };
    },
  },
});
