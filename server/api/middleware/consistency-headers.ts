// The data layer's side of the HTTP contract: bookmarks and Idempotency-Key in, where the answer
// came from out (docs/flows/reads-and-writes.md).
import { BOOKMARK_COOKIE, BOOKMARK_HEADER, laterLsn, signBookmark, verifyBookmark } from '../../db/bookmark';
import { AppError } from '../../errors';
import { decodedCookie } from '../../net/cookies';
import { isHttps } from '../../net/request-origin';
import type { Context } from '../context';

/** The bookmark cookie's attributes, for every door that sets it (tRPC headers, server actions). */
export const BOOKMARK_COOKIE_OPTIONS = { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 3600 } as const;

function bookmarkSetCookie(token: string, secure: boolean): string {
  const o = BOOKMARK_COOKIE_OPTIONS;
  return `${BOOKMARK_COOKIE}=${token}; Path=${o.path}; HttpOnly; SameSite=Lax; Max-Age=${o.maxAge}${secure ? '; Secure' : ''}`;
}

const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;

export function readConsistencyHeaders(ctx: Context, mutation: boolean): void {
  const header = ctx.req.headers.get(BOOKMARK_HEADER);
  let bookmark: bigint | undefined;
  if (header) {
    bookmark = verifyBookmark(header);
    if (bookmark === undefined) {
      throw new AppError('invalid_request', `${BOOKMARK_HEADER} is not a bookmark this service issued`);
    }
  }
  // A stale or foreign cookie (e.g. after a secret rotation) is ignored, never an error.
  const fromCookie = decodedCookie(ctx.req.headers, BOOKMARK_COOKIE);
  ctx.consistency.bookmark = laterLsn(bookmark, fromCookie ? verifyBookmark(fromCookie) : undefined);

  const key = ctx.req.headers.get('idempotency-key');
  if (key !== null && mutation) {
    if (!IDEMPOTENCY_KEY_RE.test(key)) {
      throw new AppError('invalid_request', 'Idempotency-Key must be 1–255 visible ASCII characters');
    }
    ctx.consistency.idempotencyKey = key;
  }
}

export function stampConsistencyHeaders(ctx: Context): void {
  const d = ctx.consistency;
  if (d.servedBy) ctx.req.setHeader('X-Meridian-Served-By', d.servedBy);
  if (d.degraded) {
    ctx.req.setHeader('X-Degraded', 'true');
    ctx.req.setHeader('X-Degraded-Reason', d.degraded);
  }
  if (d.replayed) ctx.req.setHeader('Idempotent-Replayed', 'true');
  if (d.newBookmark !== undefined) {
    const token = signBookmark(d.newBookmark);
    ctx.req.setHeader(BOOKMARK_HEADER, token);
    if (ctx.req.transport === 'trpc') {
      ctx.req.setHeader('Set-Cookie', bookmarkSetCookie(token, isHttps(ctx.req.headers)));
    }
  }
}
