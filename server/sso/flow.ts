// Single sign-on's shared parts: the sealed cookie between its two steps (start.ts, then
// callback.ts), where each ends (back to sign-in, audited) and the workspace's settings.
// Steps, checks and failure codes: docs/flows/single-sign-on.md
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import { homeRegionOf } from '../cell/workspaces';
import { readPrimary, writePrimary } from '../db/primary-reads';
import { cookieValue } from '../net/cookies';
import { isHttps } from '../net/request-origin';
import type { LimitPolicy } from '../rate-limits/limiters';
import { regionRegistry } from '../region/registry';
import { openSecret, sealSecret } from '../secrets/sealed';
import type { SsoFailure } from '../../lib/sso-failures';
import { signInSettings, type SignInSettings } from './config';

export const SSO_PATH = '/sign-in/sso';
export const SSO_COOKIE = 'meridian_sso';
/** How long a person has at the identity provider before the sign-in must start again. */
export const SSO_STATE_TTL_S = 10 * 60;
const COOKIE_CONTEXT = 'sso-sign-in-cookie';

export const SSO_LIMITS = {
  /** Sign-ins sent to an identity provider per client address (each costs a state row). */
  start: { name: 'sso_start_ip', points: 30, duration: 15 * 60 },
  /** Callbacks per client address (each may cost a token request to the provider). */
  callback: { name: 'sso_callback_ip', points: 30, duration: 15 * 60 },
} satisfies Record<string, LimitPolicy>;

/** The scopes asked for: the ID token's email and name (and, configured there, groups). */
export const SCOPES = 'openid email profile';

export interface Here {
  /** The region whose host the request came to (undefined at the global address). */
  region: string | undefined;
  address: string;
  requestId: string;
}

/** What the browser holds between the two steps, sealed (AES-256-GCM), host-only, HttpOnly. */
export const Pending = z.object({
  state: z.string(),
  verifier: z.string(),
  nonce: z.string(),
  orgId: z.string().nullable(),
  workspace: z.string().nullable(),
  region: z.string(),
  next: z.string(),
});
export type Pending = z.infer<typeof Pending>;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export const see = (location: string, cookies: string[] = []) => {
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' });
  for (const c of cookies) headers.append('Set-Cookie', c);
  return new Response(null, { status: 303, headers });
};

export const ssoCookie = (value: string, maxAge: number, headers: Headers) =>
  `${SSO_COOKIE}=${value}; Path=${SSO_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${isHttps(headers) ? '; Secure' : ''}`;

/** Back to this region's sign-in page, saying why (the code is the page's `?error=`). */
export function backToSignIn(
  code: SsoFailure,
  ctx: { workspace?: string | null; next: string },
  cookies: string[] = [],
) {
  return see(
    `/sign-in?${new URLSearchParams({
      ...(ctx.workspace ? { workspace: ctx.workspace } : {}),
      error: code,
      callbackUrl: ctx.next,
    })}`,
    cookies,
  );
}

export async function auditFailure(
  code: SsoFailure,
  here: Here,
  detail: { orgId?: string | null; reason: string; extra?: Record<string, unknown> },
): Promise<void> {
  const userId = typeof detail.extra?.user_id === 'string' ? detail.extra.user_id : null;
  await writePrimary((db) =>
    recordAudit(db, {
      action: 'auth.sign_in_failed',
      targetType: userId ? 'user' : 'organization',
      targetId: userId ?? detail.orgId ?? null,
      orgId: detail.orgId ?? null,
      region: here.region ?? null,
      requestId: here.requestId,
      metadata: { via: 'sso', code, reason: detail.reason, address: here.address, ...detail.extra },
    }),
  ).catch(() => {}); // the audit write never decides a sign-in
}

export async function regionBaseUrl(region: string): Promise<string | undefined> {
  return (await regionRegistry()).get(region)?.baseUrl.replace(/\/$/, '');
}

/** The workspace's settings, or undefined when it has none (or does not exist: the same answer). */
export async function workspaceSettings(slug: string): Promise<SignInSettings | undefined> {
  const order = (await regionRegistry()).all().map((r) => r.code);
  return (await readPrimary((db) => signInSettings(db, slug, (org) => homeRegionOf(org, order)))) ?? undefined;
}

/** The sealed cookie value that carries `pending` to the callback. */
export const sealPending = (pending: Pending) => sealSecret(JSON.stringify(pending), COOKIE_CONTEXT);

export function readPending(headers: Headers): Pending | undefined {
  const raw = cookieValue(headers, SSO_COOKIE);
  if (!raw) return undefined;
  try {
    return Pending.parse(JSON.parse(openSecret(raw, COOKIE_CONTEXT)));
  } catch {
    return undefined; // altered, another key's, or not ours: as good as absent
  }
}
