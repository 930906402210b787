// Server actions run procedures through the same middleware, written only with `serverAction` (a
// test checks it); the request ID and region come back in the result, as Next can't set headers.
import { cookies, headers } from 'next/headers';
import { BOOKMARK_COOKIE, signBookmark } from '../../db/bookmark';
import { errorBody, type ErrorBody } from '../../errors';
import { isHttps, requestHost, requestOrigin } from '../../net/request-origin';
import { createContext } from '../context';
import { BOOKMARK_COOKIE_OPTIONS } from '../middleware/consistency-headers';
import { toAppError } from '../middleware/error-mapping';
import { createCaller } from '../root';

export interface ActionMeta {
  requestId: string;
  region: string;
  regionSource: string;
}

export type ActionResult<T> = ({ ok: true; data: T } | { ok: false; error: ErrorBody['error'] }) & { meta: ActionMeta };

type Caller = ReturnType<typeof createCaller>;

/** The page URL the action was posted from: its query string counts as `?region=`. */
function actionUrl(h: Headers): URL {
  const host = requestHost(h);
  const origin = requestOrigin(h);
  const referer = h.get('referer');
  if (referer) {
    try {
      const u = new URL(referer);
      if (u.host === host) return new URL(`${u.pathname}${u.search}`, origin);
    } catch {
      /* ignore a malformed Referer */
    }
  }
  return new URL('/', origin);
}

export function serverAction<I, O>(run: (api: Caller, input: I) => Promise<O>) {
  return async (input: I): Promise<ActionResult<O>> => {
    const h = new Headers(await headers());
    const ctx = createContext({
      transport: 'action',
      method: 'POST',
      url: actionUrl(h),
      headers: h,
      setHeader: () => {},
    });
    const api = createCaller(ctx);
    const meta = (): ActionMeta => ({
      requestId: ctx.requestId,
      region: ctx.response.headers['X-Region'] ?? ctx.gatewayRegion,
      regionSource: ctx.response.headers['X-Region-Source'] ?? 'gateway',
    });
    try {
      const data = await run(api, input);
      if (ctx.consistency.newBookmark !== undefined) {
        // The browser carries its bookmark without help: its next read sees this write.
        (await cookies()).set(BOOKMARK_COOKIE, signBookmark(ctx.consistency.newBookmark), {
          ...BOOKMARK_COOKIE_OPTIONS,
          secure: isHttps(h),
        });
      }
      return { ok: true, data, meta: meta() };
    } catch (e) {
      return { ok: false, error: errorBody(toAppError(e), ctx.requestId).error, meta: meta() };
    }
  };
}
