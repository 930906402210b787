// Auth.js (next-auth v5) for the browser: email + password, JWT sessions, configured lazily.
// What a session holds and how it ends: docs/architecture.md#identity-and-tenancy
import { AsyncLocalStorage } from 'node:async_hooks';
import NextAuth, { CredentialsSignin } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { readPrimary, writePrimary } from '../db/primary-reads';
import { authSecret, env } from '../env';
import { errorBody, isAppError, type AppError } from '../errors';
import { newRequestId } from '../ids';
import { recordAudit } from '../audit/audit';
import { clientAddress } from '../net/client-address';
import { requestHost } from '../net/request-origin';
import { hostRegion } from '../region/host-region';
import { isGlobalAddress } from '../directory/page';
import { endAllSessions } from './sessions';
import { endSession, recordSession } from './session-records';
import { SESSION_MAX_AGE } from './session-age';
import { checkCredentials, type SignedInUser } from './sign-in';
import { findUserByEmail, membershipsOf } from './users';

class RateLimited extends CredentialsSignin {
  code = 'rate_limited';
}

/** The right password of a member of an organization that requires single sign-on. */
class SsoRequired extends CredentialsSignin {
  code = 'sso_required';
}

/** Passwords are typed only at a region's host: the global address hands sessions over (./handoff.ts). */
class NotAtGlobalAddress extends CredentialsSignin {
  code = 'sign_in_at_region';
}

export { SESSION_MAX_AGE };

/** The rate-limit refusal a sign-in request's authorize() met, for its route to answer. */
const refusals = new AsyncLocalStorage<{ refused?: AppError }>();

const nextAuth = NextAuth(() => ({
  secret: authSecret(),
  // Our server (server/http/main.ts) passes on X-Forwarded-Host/-Proto only from a trusted
  // proxy of ours; otherwise Next fills them in from the Host header and the socket.
  trustHost: true,
  // A wrong password is an expected outcome (audited, rate-limited), not a server error.
  logger: {
    error(error: Error) {
      // By `type`, which Auth.js sets on the class: the production build renames classes.
      if (error instanceof CredentialsSignin || (error as { type?: string }).type === 'CredentialsSignin') return;
      console.error(error);
    },
  },
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE },
  pages: { signIn: '/sign-in' },
  providers: [
    Credentials({
      credentials: {
        email: { label: 'Email' },
        password: { label: 'Password', type: 'password' },
        workspace: { label: 'Workspace' },
      },
      async authorize(raw, request) {
        // Refused before the password is even looked at: nothing typed here is checked or kept.
        if (isGlobalAddress(request.headers)) throw new NotAtGlobalAddress();
        const address = clientAddress(request.headers);
        try {
          const user = await checkCredentials(raw, address);
          await auditSignIn(raw, address, user);
          if (!user) return null;
          // The session's record: its ID goes into the token (the jwt callback below).
          const sid = await recordSession({
            userId: user.id,
            via: 'password',
            region: signInRegion(request.headers),
            headers: request.headers,
          });
          return { ...user, sid };
        } catch (e) {
          if (isAppError(e) && (e.code === 'rate_limited' || e.code === 'sso_required')) {
            const seen = refusals.getStore();
            if (seen) seen.refused = e;
            if (e.code === 'sso_required') {
              await auditSignIn(raw, address, null, 'sso_required');
              throw new SsoRequired();
            }
            throw new RateLimited();
          }
          throw e;
        }
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user, trigger, session }) {
      if (user?.id) {
        token.uid = user.id;
        token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 0;
        token.sid = (user as { sid?: string }).sid;
        // Signed in through a workspace's page: act in that organization (membership checked).
        token.org = await startingOrg(user as SignedInUser);
      }
      // A session an organization's single sign-on made stays in that organization: its provider
      // vouches for nothing else (docs/flows/single-sign-on.md#what-a-session-may-do).
      const ssoBound = typeof token.sso === 'string' && token.sso !== 'platform';
      if (
        trigger === 'update' &&
        !ssoBound &&
        typeof (session as { orgId?: unknown })?.orgId === 'string' &&
        token.uid
      ) {
        const wanted = (session as { orgId: string }).orgId;
        const mine = await readPrimary((db) => membershipsOf(db, String(token.uid)));
        if (mine.some((m) => m.org.id === wanted) && wanted !== token.org) {
          token.org = wanted; // never trust the client's pick
          token.project = null; // a project belongs to one organization
        }
      }
      const pick = (session as { projectId?: unknown } | undefined)?.projectId;
      if (trigger === 'update' && (pick === null || typeof pick === 'string') && token.uid) {
        if (pick === null) token.project = null;
        else if (typeof token.org === 'string') {
          const org = token.org;
          const mine = await readPrimary((db) =>
            db.project.findFirst({ where: { id: pick, orgId: org, deletedAt: null }, select: { id: true } }),
          );
          if (mine) token.project = mine.id; // only a project of the organization the session acts in
        }
      }
      return token;
    },
    session({ session, token }) {
      return { ...session, userId: token.uid as string, orgId: (token.org as string | null) ?? null };
    },
  },
  events: {
    async signOut(message) {
      const uid = 'token' in message ? message.token?.uid : undefined;
      if (typeof uid !== 'string') return;
      const sid = 'token' in message ? message.token?.sid : undefined;
      // A copied token must not outlive the sign-out: this session's record ends (every gateway
      // refuses its token at once); a token without one ends every session of the user.
      if (typeof sid === 'string') await writePrimary((db) => endSession(db, uid, sid, 'signed_out'));
      else await writePrimary((db) => endAllSessions(db, uid));
      await writePrimary((db) =>
        recordAudit(db, {
          action: 'auth.sign_out',
          targetType: 'user',
          targetId: uid,
          actorId: uid,
          metadata: typeof sid === 'string' ? { session_id: sid } : { everywhere: true },
        }),
      );
    },
  },
}));

export const { auth, signIn, signOut, unstable_update } = nextAuth;

type AuthRoute = (req: Parameters<typeof nextAuth.handlers.POST>[0]) => Promise<Response>;

/**
 * Auth.js's routes, a sign-in the rate limits refused answered 429 with Retry-After, and one that
 * must use single sign-on 403 sso_required.
 */
export const handlers: { GET: AuthRoute; POST: AuthRoute } = {
  GET: (req) => nextAuth.handlers.GET(req),
  POST: async (req) => {
    const seen: { refused?: AppError } = {};
    const res = await refusals.run(seen, () => nextAuth.handlers.POST(req));
    return seen.refused ? await refusedSignIn(req, seen.refused, res) : res;
  },
};

async function refusedSignIn(req: Request, err: AppError, authjs: Response): Promise<Response> {
  const { label, wellFormed } = hostRegion(requestHost(req.headers), env().MERIDIAN_HOST);
  const requestId = newRequestId(wellFormed && label ? label : env().MERIDIAN_GATEWAY_REGION);
  // Auth.js answers its browser client `{url}` (X-Auth-Return-Redirect), anyone else a redirect.
  const url = authjs.headers.get('location') ?? ((await authjs.json().catch(() => ({}))) as { url?: string }).url;
  const headers = new Headers({
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'X-Request-Id': requestId,
    ...err.headers,
    ...(err.retryAfter !== undefined ? { 'Retry-After': String(err.retryAfter) } : {}),
  });
  for (const cookie of authjs.headers.getSetCookie()) headers.append('Set-Cookie', cookie);
  return new Response(JSON.stringify({ ...errorBody(err, requestId), ...(url ? { url } : {}) }), {
    status: err.status,
    headers,
  });
}

/** The region whose host a sign-in came to (null when the host names none). */
function signInRegion(headers: Headers): string | null {
  const { label, wellFormed } = hostRegion(requestHost(headers), env().MERIDIAN_HOST);
  return wellFormed && label ? label : null;
}

/** The organization a new session acts in: the workspace the sign-in named, else the first membership. */
async function startingOrg(user: Pick<SignedInUser, 'id' | 'orgId'>): Promise<string | null> {
  return user.orgId ?? (await readPrimary((db) => membershipsOf(db, user.id)))[0]?.org.id ?? null;
}

/**
 * Every sign-in attempt, success or failure, is in the audit trail (no password, ever). A success
 * at a workspace's page is that organization's too (its Arc audit log); one that named none is the
 * person's alone: which of their organizations it was for is not known.
 */
async function auditSignIn(
  raw: unknown,
  address: string,
  user: SignedInUser | null,
  refused?: 'sso_required',
): Promise<void> {
  const email = typeof (raw as { email?: unknown })?.email === 'string' ? (raw as { email: string }).email : '';
  const known = user ?? (email ? await readPrimary((db) => findUserByEmail(db, email)) : null);
  await writePrimary((db) =>
    recordAudit(db, {
      action: user ? 'auth.sign_in' : 'auth.sign_in_failed',
      targetType: 'user',
      targetId: known?.id ?? null,
      actorId: user?.id ?? null,
      orgId: user?.orgId ?? null,
      // An email that belongs to nobody is not kept: it may be a person's address mistyped.
      metadata: { address, ...(known ? { email: known.email } : {}), ...(refused ? { code: refused } : {}) },
    }),
  ).catch(() => {}); // the audit write never decides a sign-in
}
