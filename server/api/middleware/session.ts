// The browser session: Auth.js's encrypted JWT cookie, decoded here for every door (REST,
// tRPC, server actions, pages). The token names the user and the organization they act in;
// platform role, membership, role and regions are read fresh from the database each time, so a
// revoked membership or role takes effect on the next request.
import { decode } from 'next-auth/jwt';
import type { Identity } from '../../auth/identity';
import { sessionSubject } from '../../auth/users';
import { read } from '../../db/access';
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
    const subject = await read(ctx, (db) =>
      sessionSubject(
        db,
        token.uid as string,
        (token.org as string | null) ?? null,
        typeof token.project === 'string' ? token.project : null,
      ),
    );
    if (!subject) return undefined;
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
