// Signing in from the global address: on to the region's sign-in page of a workspace or a region,
// with a hand-off that brings the browser back signed in (docs/flows/sign-in-handoff.md).
import { z } from 'zod';
import { globalUrl } from '../env';
import { isAppError } from '../errors';
import { issuePath, newHandoffState } from '../auth/handoff';
import { addressBucket, clientAddress } from '../net/client-address';
import { sameOriginPath } from '../net/redirect';
import { isRegionCode } from '../region/code';
import { regionRegistry } from '../region/registry';
import { consumeWithHeaders } from '../rate-limits/limiters';
import { DIRECTORY_MAX_BODY_BYTES } from '../net/body-limits';
import { readBodyText } from '../net/body';
import { LOOKUP_LIMIT, rememberCookie } from './lookup-api';
import { lookUpWorkspace } from './workspace-lookup';
import { slugSchema } from './workspaces';

export interface SignInRegion {
  code: string;
  name: string;
  status: string;
}

/** The regions one can sign in at, from the region registry every gateway holds in memory. */
export async function signInRegions(): Promise<SignInRegion[]> {
  return (await regionRegistry()).all().map((r) => ({ code: r.code, name: r.label, status: r.status }));
}

const Start = z.object({
  workspace: z.string().trim().toLowerCase().optional(),
  region: z.string().trim().toLowerCase().optional(),
  next: z.string().max(2048).optional(),
});

/** `GET|POST /sign-in/handoff/start`: on to the region's sign-in page, or back here saying why. */
export async function startSignIn(req: Request, setHeader: (k: string, v: string) => void): Promise<Response> {
  const url = new URL(req.url);
  const form =
    req.method === 'POST'
      ? new URLSearchParams(await readBodyText(req, { limit: DIRECTORY_MAX_BODY_BYTES }))
      : url.searchParams;
  const input = Start.safeParse(Object.fromEntries(form));
  const next = sameOriginPath(input.success ? input.data.next : undefined, globalUrl(), '/arc');
  const back = (error: string, extra: Record<string, string> = {}) =>
    new Response(null, {
      status: 303,
      headers: { Location: `/sign-in?${new URLSearchParams({ error, callbackUrl: next, ...extra })}` },
    });
  if (!input.success) return back('invalid');
  const { workspace, region } = input.data;

  let address: string;
  const headers = new Headers();
  if (workspace !== undefined) {
    if (!slugSchema.safeParse(workspace).success) return back('invalid', { workspace: workspace.slice(0, 63) });
    try {
      // A workspace look-up here is a directory look-up: the same limit and the same decoys.
      await consumeWithHeaders(
        LOOKUP_LIMIT,
        addressBucket(clientAddress(req.headers)),
        'too many look-ups',
        setHeader,
        60,
      );
      const found = await lookUpWorkspace(workspace);
      if (found.status === 'down') return back('region_down', { workspace, region: found.name });
      address = found.address;
    } catch (e) {
      if (isAppError(e) && e.code === 'rate_limited') return back('rate_limited', { workspace });
      if (isAppError(e) && e.code === 'directory_unavailable') return back('unavailable', { workspace });
      throw e;
    }
    headers.append('Set-Cookie', rememberCookie(workspace, req.headers));
  } else if (region !== undefined && isRegionCode(region)) {
    const row = (await regionRegistry()).get(region);
    if (!row) return back('invalid_region');
    if (row.status === 'down') return back('region_down', { region: row.label });
    address = row.baseUrl;
  } else {
    return back(region === undefined ? 'invalid' : 'invalid_region');
  }

  const { state, cookie } = newHandoffState(req.headers);
  headers.append('Set-Cookie', cookie);
  headers.set('Location', `${address.replace(/\/$/, '')}${issuePath(state, next, workspace)}`);
  return new Response(null, { status: 303, headers });
}
