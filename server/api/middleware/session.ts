// The browser session for every door: Auth.js's encrypted JWT cookie, decoded, with platform role,
// membership and regions read fresh each time (docs/architecture.md#identity-and-tenancy).
import { LRUCache } from 'lru-cache';
import { decode, type JWT } from 'next-auth/jwt';
import type { Identity } from '../../auth/identity';
import { sessionSubject } from '../../auth/users';
import { cachedLookup } from '../../auth/identity-lookup';
import { assertNotSuspended } from '../../organizations/suspension';
import { authSecret } from '../../env';
import { cookieValue } from '../../net/cookies';
import { processSingleton } from '../../process-singletons';
import type { Context } from '../context';

const COOKIES = ['__Secure-authjs.session-token', 'authjs.session-token'];

/**
 * Decrypted tokens by their cookie value, never used past their own expiry: decrypting (HKDF +
 * AES) is the costly part of a session request. A forged value never decrypts, so it is never kept.
 */
const decoded = () =>
  processSingleton('session-tokens', () => new LRUCache<string, JWT>({ max: 10_000, ttl: 5 * 60_000 }));

async function decodeToken(raw: string, salt: string): Promise<JWT | null> {
  const cacheKey = `${salt}:${raw}`;
  const hit = decoded().get(cacheKey);
  if (hit) {
    if (typeof hit.exp !== 'number' || hit.exp * 1000 > Date.now()) return hit;
    decoded().delete(cacheKey);
    return null;
  }
  const token = await decode({ token: raw, secret: authSecret(), salt }).catch(() => null);
  if (token) decoded().set(cacheKey, token);
  return token;
}

/**
 * The request's signed-in identity: a revoked membership or role takes effect on the next
 * request, and a token older than the user's session version (they signed out) is refused.
 */
export async function sessionIdentity(ctx: Context): Promise<Identity | undefined> {
  for (const name of COOKIES) {
    const raw = cookieValue(ctx.req.headers, name);
    if (!raw) continue;
    const token = await decodeToken(raw, name);
    if (!token?.uid || typeof token.uid !== 'string') return undefined;
    const uid = token.uid;
    const org = typeof token.org === 'string' ? token.org : null;
    const project = typeof token.project === 'string' ? token.project : null;
    // The session's record (tokens made before records existed have none: their version decides).
    const sid = typeof token.sid === 'string' ? token.sid : null;
    const subject = await cachedLookup(ctx, {
      cacheKey: `session:${uid}|${org ?? ''}|${project ?? ''}|${sid ?? ''}`,
      subjects: [
        `user:${uid}`,
        ...(org ? [`org:${org}`] : []),
        ...(project ? [`project:${project}`] : []),
        ...(sid ? [`session:${sid}`] : []),
      ],
      load: (db) => sessionSubject(db, uid, org, project, sid),
    });
    // Signed out since (or ended by a password or membership change): the token is dead.
    if (!subject || subject.user.sessionVersion !== (typeof token.sv === 'number' ? token.sv : 0)) return undefined;
    // This session ended (signed out, or from another one) or outlived its 12 hours: the token is
    // dead too, however often Auth.js re-issued it.
    if (subject.session && (subject.session.ended || subject.session.expiresAt <= Date.now())) return undefined;
    // A suspended organization's people are refused everywhere; operators are not (they reinstate it).
    if (subject.user.platformRole !== 'operator') assertNotSuspended(subject.membership?.org);
    const sso = typeof token.sso === 'string' ? token.sso : null;
    return {
      kind: 'session',
      userId: subject.user.id,
      sessionId: sid,
      email: subject.user.email,
      // An organization's identity provider vouches for its own members only: a session it signed
      // in never carries the platform role (docs/flows/single-sign-on.md#what-a-session-may-do).
      platformOperator: subject.user.platformRole === 'operator' && (sso === null || sso === 'platform'),
      sso,
      org: subject.membership?.org ?? null,
      orgRole: subject.membership?.role ?? null,
      project: subject.project,
      projectRegion: subject.project?.defaultRegion ?? null,
      userRegion: subject.user.settings?.defaultRegion ?? null,
    };
  }
  return undefined;
}
