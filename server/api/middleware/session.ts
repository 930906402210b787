// The browser session: Auth.js's encrypted JWT cookie, decoded here for every door (REST,
// tRPC, server actions, pages). The token names the user and the organization they act in;
// platform role, membership, role and regions are read fresh from the database each time, so a
// revoked membership or role takes effect on the next request, and a token older than the user's
// session version (they signed out) is refused.
import { decode } from 'next-auth/jwt';
import type { Identity } from '../../auth/identity';
import { sessionSubject } from '../../auth/users';
import { cachedLookup } from '../../auth/identity-cache';
import { authSecret } from '../../env';
import { cookieValue } from '../../net/cookies';
import type { Context } from '../context';

const COOKIES = ['__Secure-authjs.session-token', 'authjs.session-token'];

export async function sessionIdentity(ctx: Context): Promise<Identity | undefined> {
  for (const name of COOKIES) {
    const raw = cookieValue(ctx.req.headers, name);
    if (!raw) continue;
    const token = await decode({
      token: raw,
      secret: authSecret(),
      salt: name,
    }).catch(() => null);
    if (!token?.uid || typeof token.uid !== 'string') return undefined;
    const uid = token.uid;
    const org = typeof token.org === 'string' ? token.org : null;
    const project = typeof token.project === 'string' ? token.project : null;
    const subject = await cachedLookup(ctx, {
      cacheKey: `session:${uid}|${org ?? ''}|${project ?? ''}`,
      subjects: [`user:${uid}`, ...(org ? [`org:${org}`] : []), ...(project ? [`project:${project}`] : [])],
      load: (db) => sessionSubject(db, uid, org, project),
    });
    // Signed out since (or ended by a password or membership change): the token is dead.
    if (!subject || subject.user.sessionVersion !== (typeof token.sv === 'number' ? token.sv : 0)) return undefined;
    return {
      kind: 'session',
      userId: subject.user.id,
      email: subject.user.email,
      platformOperator: subject.user.platformRole === 'operator',
      org: subject.membership?.org ?? null,
      orgRole: subject.membership?.role ?? null,
      project: subject.project,
      projectRegion: subject.project?.defaultRegion ?? null,
      userRegion: subject.user.settings?.defaultRegion ?? null,
    };
  }
  return undefined;
}
