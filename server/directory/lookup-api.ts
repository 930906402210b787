// POST /api/v1/directory/resolve at the global address: a slug → its region, as JSON or as a 303
// from the page's plain form, 20 look-ups a minute per address (docs/flows/directory.md).
import { z } from 'zod';
import { AppError, isAppError } from '../errors';
import { addressBucket, clientAddress } from '../net/client-address';
import { isHttps } from '../net/request-origin';
import { consumeWithHeaders, type LimitPolicy } from '../rate-limits/limiters';
import { DIRECTORY_MAX_BODY_BYTES } from '../net/body-limits';
import { parseJsonBody, readBodyText } from '../net/body';
import { lookUpWorkspace, type WorkspaceLookup } from './workspace-lookup';
import { assertDirectoryHere } from './roles';
import { slugSchema } from './workspaces';

export const LOOKUP_LIMIT = { name: 'directory_lookup', points: 20, duration: 60 } satisfies LimitPolicy;
/** The browser's memory of the last workspace found (a slug: no personal data; the page's script sets it too). */
export const REMEMBERED_WORKSPACE_COOKIE = 'meridian_workspace';

const LookupBody = z.object({ slug: slugSchema });

export function signInUrl(r: WorkspaceLookup, slug: string): string {
  return `${r.address.replace(/\/$/, '')}/sign-in?workspace=${encodeURIComponent(slug)}`;
}

export function rememberCookie(slug: string, headers: Headers): string {
  return `${REMEMBERED_WORKSPACE_COOKIE}=${encodeURIComponent(slug)}; Path=/; Max-Age=31536000; SameSite=Lax${
    isHttps(headers) ? '; Secure' : ''
  }`;
}

export interface LookupContext {
  gatewayRegion: string;
  setHeader(name: string, value: string): void;
}

export async function handleLookup(ctx: LookupContext, req: Request): Promise<Response> {
  assertDirectoryHere(ctx.gatewayRegion);
  const form = (req.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded');
  try {
    await consumeWithHeaders(
      LOOKUP_LIMIT,
      addressBucket(clientAddress(req.headers)),
      'too many workspace look-ups from this address: try again in a minute',
      ctx.setHeader,
      60,
    );
  } catch (e) {
    // The page's plain form goes back to the page, which says why (the headers still say it too).
    if (form && isAppError(e) && e.code === 'rate_limited') {
      for (const [k, v] of Object.entries(e.headers)) ctx.setHeader(k, v);
      ctx.setHeader('Retry-After', '60');
      return new Response(null, { status: 303, headers: { Location: '/?error=rate_limited' } });
    }
    throw e;
  }
  const text = await readBodyText(req, { limit: DIRECTORY_MAX_BODY_BYTES });
  if (form) return formLookup(text, req.headers);

  const parsed = LookupBody.safeParse(parseJsonBody(text));
  if (!parsed.success) {
    throw new AppError('invalid_request', 'slug must be 2–63 of a–z, 0–9 and -, starting with a letter or digit', {
      extra: { details: parsed.error.issues.map((i) => ({ path: i.path, message: i.message })) },
    });
  }
  const r = await lookUpWorkspace(parsed.data.slug);
  return Response.json(r, { headers: { 'Cache-Control': 'no-store' } });
}

/** The page's form without JavaScript: go on to the region, or back to the page saying why. */
async function formLookup(text: string, headers: Headers): Promise<Response> {
  const slug = (new URLSearchParams(text).get('workspace') ?? '').trim().toLowerCase();
  const back = (reason: string, region?: string) =>
    new Response(null, {
      status: 303,
      headers: {
        Location: `/?workspace=${encodeURIComponent(slug.slice(0, 63))}&error=${reason}${
          region ? `&region=${encodeURIComponent(region)}` : ''
        }`,
      },
    });
  if (!slugSchema.safeParse(slug).success) return back('invalid');
  try {
    const r = await lookUpWorkspace(slug);
    if (r.status === 'down') return back('region_down', r.name);
    return new Response(null, {
      status: 303,
      headers: { Location: signInUrl(r, slug), 'Set-Cookie': rememberCookie(slug, headers) },
    });
  } catch (e) {
    if (isAppError(e) && e.code === 'directory_unavailable') return back('unavailable');
    throw e;
  }
}
