// The Auth.js session cookie, minted outside Auth.js's own routes (the sign-in hand-off, single
// sign-on): the same JWT, salt and attributes Auth.js sets, so every door reads it alike.
import { encode } from 'next-auth/jwt';
import { authSecret } from '../env';
import { isHttps } from '../net/request-origin';
import { SESSION_MAX_AGE } from './session-age';

export interface SessionSubject {
  id: string;
  email: string;
  name: string;
  sessionVersion: number;
}

/**
 * `Set-Cookie` for a session of `user` acting in `orgId` (host-only, HttpOnly, Lax; Secure over
 * https). `sso`: how it was signed in, when by single sign-on (`platform` or the organization's ID);
 * `sid`: the session's record (session-records.ts).
 */
export async function sessionSetCookie(
  user: SessionSubject,
  orgId: string | null,
  headers: Headers,
  { sso, sid }: { sso?: string; sid?: string } = {},
): Promise<string> {
  const secure = isHttps(headers);
  const name = secure ? '__Secure-authjs.session-token' : 'authjs.session-token';
  const jwt = await encode({
    token: {
      sub: user.id,
      uid: user.id,
      sv: user.sessionVersion,
      org: orgId,
      name: user.name,
      email: user.email,
      ...(sso ? { sso } : {}),
      ...(sid ? { sid } : {}),
    },
    secret: authSecret(),
    salt: name,
    maxAge: SESSION_MAX_AGE,
  });
  return `${name}=${jwt}; Path=/; Max-Age=${SESSION_MAX_AGE}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
