// Sessions handed from a region's host to the global address (start, issue, finish), OAuth-style:
// the global address borrows the region's sign-in. Steps and threats: docs/flows/sign-in-handoff.md
import { z } from 'zod';
import { globalUrl } from '../env';
import { AppError, isAppError } from '../errors';
import { cookieValue } from '../net/cookies';
import { isHttps } from '../net/request-origin';
import { sameOriginPath } from '../net/redirect';
import { readPrimary } from '../db/primary-reads';
import { DIRECTORY_MAX_BODY_BYTES } from '../net/body-limits';
import { readBodyText } from '../net/body';
import { slugSchema } from '../directory/workspaces';
import { regionRegistry } from '../region/registry';
import { finishHandoff, handoffSecret, HANDOFF_PATH, HANDOFF_STATE_COOKIE, issueHandoff } from './handoff-codes';
import type { Identity } from './identity';

export { HANDOFF_PATH, HANDOFF_STATE_COOKIE };
const STATE_TTL_S = 10 * 60;

export const handoffToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** Step 1 at the global address: a fresh state and the cookie that carries it. */
export function newHandoffState(headers: Headers): { state: string; cookie: string } {
  const state = handoffSecret();
  const cookie = `${HANDOFF_STATE_COOKIE}=${state}; Path=${HANDOFF_PATH}; Max-Age=${STATE_TTL_S}; HttpOnly; SameSite=Lax${
    isHttps(headers) ? '; Secure' : ''
  }`;
  return { state, cookie };
}

/**
 * The path at a region's host that issues a code for `state` and comes back to `next`; with
 * `workspace`, for a session acting in that workspace (it signs in there first if need be).
 */
export function issuePath(state: string, next: string, workspace?: string): string {
  return `${HANDOFF_PATH}/issue?${new URLSearchParams({ state, next, ...(workspace ? { workspace } : {}) })}`;
}

const see = (location: string, cookies: string[] = []) => {
  const headers = new Headers({ Location: location });
  for (const c of cookies) headers.append('Set-Cookie', c);
  return new Response(null, { status: 303, headers });
};

const IssueQuery = z.object({
  state: handoffToken,
  next: z.string().max(2048).optional(),
  workspace: slugSchema.optional(),
});
type IssueInput = z.infer<typeof IssueQuery>;

const issueQueryOf = (q: IssueInput) =>
  new URLSearchParams({
    state: q.state,
    ...(q.next !== undefined ? { next: q.next } : {}),
    ...(q.workspace ? { workspace: q.workspace } : {}),
  });

const escapeHtml = (v: string) =>
  v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The step's page: a form that POSTs the hand-off back here; the nonce'd script sends it at once. */
function issuePage(q: IssueInput, email: string, nonce: string | null): Response {
  const fields = [...issueQueryOf(q)]
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  const script = nonce
    ? `<script nonce="${escapeHtml(nonce)}">document.getElementById('handoff').submit()</script>`
    : '';
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Back to Meridian</title>` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"></head><body>` +
    `<form id="handoff" method="post" action="${HANDOFF_PATH}/issue">${fields}` +
    `<p>Signed in as ${escapeHtml(email)}.</p><button type="submit">Continue to Meridian</button></form>` +
    `${script}</body></html>`;
  return new Response(html, {
    status: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

/** The workspace's home when it moved away from `here` (server/moves), else undefined. */
async function movedHome(identity: Identity, here: string) {
  if (identity.kind !== 'session' || !identity.org?.homeRegion || identity.org.homeRegion === here) return undefined;
  const home = identity.org.homeRegion;
  return { code: home, slug: identity.org.slug, baseUrl: (await regionRegistry()).get(home)?.baseUrl };
}

type IssueCheck =
  | { done: Response }
  | { input: IssueInput; next: string; region: string; identity: Extract<Identity, { kind: 'session' }> };

/** What both methods check first: the input, the global address, being signed in (in the workspace). */
function checkIssue(identity: Identity, input: unknown, here: { region: string | undefined }): IssueCheck {
  const q = IssueQuery.safeParse(input);
  if (!q.success) throw new AppError('invalid_request', 'state must be the 43-character value the global address made');
  const next = sameOriginPath(q.data.next, globalUrl(), '/arc');
  if (!here.region) return { done: see(`${globalUrl()}${next}`) }; // already at the global address
  // Not signed in here yet (or, for a workspace, not acting in it): the region's sign-in page
  // first, which comes back to the GET. Already signed in: straight on, nothing typed again.
  const { workspace } = q.data;
  if (identity.kind !== 'session' || (workspace && identity.org?.slug !== workspace)) {
    const back = `${HANDOFF_PATH}/issue?${issueQueryOf(q.data)}`;
    return { done: see(`/sign-in?${new URLSearchParams({ ...(workspace ? { workspace } : {}), callbackUrl: back })}`) };
  }
  return { input: q.data, next, region: here.region, identity };
}

/**
 * `GET /sign-in/handoff/issue` at a region's host: writes nothing. A browser signed in here gets
 * the page that POSTs the hand-off; one that isn't signs in first (and comes back here after);
 * one whose workspace moved away goes on to the same step at its new home.
 */
export async function handleIssue(
  identity: Identity,
  req: Request,
  here: { region: string | undefined },
): Promise<Response> {
  const c = checkIssue(identity, Object.fromEntries(new URL(req.url).searchParams), here);
  if ('done' in c) return c.done;
  const home = await movedHome(c.identity, c.region);
  if (home?.baseUrl) return see(`${home.baseUrl.replace(/\/$/, '')}${HANDOFF_PATH}/issue?${issueQueryOf(c.input)}`);
  const user = await readPrimary((db) =>
    db.user.findUnique({ where: { id: c.identity.userId }, select: { email: true } }),
  );
  if (!user) throw new AppError('unauthenticated', 'sign in again');
  return issuePage(c.input, user.email, req.headers.get('x-nonce'));
}

/**
 * `POST /sign-in/handoff/issue` (a form, from this origin: the request middleware checks it for a
 * session): the one-time code, and the global address that consumes it. A workspace that moved
 * away is 421 wrong_region naming its home: no code is made where it no longer lives.
 */
export async function handleIssuePost(
  identity: Identity,
  req: Request,
  here: { region: string | undefined },
): Promise<Response> {
  const form = new URLSearchParams(await readBodyText(req, { limit: DIRECTORY_MAX_BODY_BYTES }));
  const c = checkIssue(identity, Object.fromEntries(form), here);
  if ('done' in c) return c.done;
  const home = await movedHome(c.identity, c.region);
  if (home) {
    throw new AppError('wrong_region', `the workspace ${home.slug} now lives in ${home.code}: sign in there`, {
      extra: { region: home.code, workspace: home.slug, ...(home.baseUrl ? { base_url: home.baseUrl } : {}) },
      headers: { 'Cache-Control': 'no-store' },
    });
  }
  // The latest session version (a replica could still hold the one before a sign-out).
  const user = await readPrimary((db) =>
    db.user.findUnique({ where: { id: c.identity.userId }, select: { sessionVersion: true } }),
  );
  if (!user) throw new AppError('unauthenticated', 'sign in again');
  return see(
    await issueHandoff(
      {
        userId: c.identity.userId,
        orgId: c.identity.org?.id ?? null,
        sessionVersion: user.sessionVersion,
        region: c.region,
        sso: c.identity.sso,
        sessionId: c.identity.sessionId,
      },
      c.input.state,
      c.next,
    ),
  );
}

const FinishQuery = z.object({ code: handoffToken, next: z.string().max(2048).optional() });

/** `GET /sign-in/handoff/finish` at the global address: signed in, or back to /sign-in saying why. */
export async function handleFinish(req: Request, address: string): Promise<Response> {
  const url = new URL(req.url);
  const q = FinishQuery.safeParse(Object.fromEntries(url.searchParams));
  const next = sameOriginPath(q.success ? q.data.next : undefined, globalUrl(), '/arc');
  const failed = () => see(`/sign-in?${new URLSearchParams({ error: 'handoff', callbackUrl: next })}`);
  if (!q.success) return failed();
  try {
    const { cookies } = await finishHandoff(
      q.data.code,
      cookieValue(req.headers, HANDOFF_STATE_COOKIE),
      req.headers,
      address,
    );
    return see(next, cookies);
  } catch (e) {
    if (isAppError(e) && e.code === 'unauthenticated') return failed();
    throw e;
  }
}
