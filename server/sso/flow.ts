// Single sign-on's two steps at a region's host: start (state, nonce and PKCE; on to the identity
// provider) and callback (the state once, the code for tokens, the ID token checked by
// openid-client, the person, the session). Steps, checks and failure codes:
// docs/flows/single-sign-on.md
import { createHash, timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import { sessionSetCookie, type SessionSubject } from '../auth/session-cookie';
import { homeRegionOf } from '../cell/workspaces';
import { readPrimary, writePrimary } from '../db/primary-reads';
import { runOne } from '../db/sql';
import { slugSchema } from '../directory/workspaces';
import { isAppError } from '../errors';
import { addressBucket } from '../net/client-address';
import { cookieValue } from '../net/cookies';
import { isHttps } from '../net/request-origin';
import { sameOriginPath } from '../net/redirect';
import { consumeOrRefuse, type LimitPolicy } from '../rate-limits/limiters';
import { regionRegistry } from '../region/registry';
import { openSecret, sealSecret } from '../secrets/sealed';
import { logger } from '../telemetry/logger';
import type { SsoFailure } from '../../lib/sso-failures';
import { SSO_CALLBACK_PATH, signInSettings, type SignInSettings } from './config';
import { oidcConfiguration, platformProvider, type ProviderSettings } from './oidc-client';
import { organizationMember, platformOperator, SsoRefusal, verifiedEmail } from './people';
import { consumeSsoState } from './states.sql';

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
const SCOPES = 'openid email profile';

export interface Here {
  /** The region whose host the request came to (undefined at the global address). */
  region: string | undefined;
  address: string;
  requestId: string;
}

/** What the browser holds between the two steps, sealed (AES-256-GCM), host-only, HttpOnly. */
const Pending = z.object({
  state: z.string(),
  verifier: z.string(),
  nonce: z.string(),
  orgId: z.string().nullable(),
  workspace: z.string().nullable(),
  region: z.string(),
  next: z.string(),
});
type Pending = z.infer<typeof Pending>;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const see = (location: string, cookies: string[] = []) => {
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' });
  for (const c of cookies) headers.append('Set-Cookie', c);
  return new Response(null, { status: 303, headers });
};

const ssoCookie = (value: string, maxAge: number, headers: Headers) =>
  `${SSO_COOKIE}=${value}; Path=${SSO_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${isHttps(headers) ? '; Secure' : ''}`;

/** Back to this region's sign-in page, saying why (the code is the page's `?error=`). */
function backToSignIn(code: SsoFailure, ctx: { workspace?: string | null; next: string }, cookies: string[] = []) {
  return see(
    `/sign-in?${new URLSearchParams({
      ...(ctx.workspace ? { workspace: ctx.workspace } : {}),
      error: code,
      callbackUrl: ctx.next,
    })}`,
    cookies,
  );
}

async function auditFailure(
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

async function regionBaseUrl(region: string): Promise<string | undefined> {
  return (await regionRegistry()).get(region)?.baseUrl.replace(/\/$/, '');
}

const StartInput = z.object({
  workspace: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(slugSchema)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  platform: z.literal('1').optional(),
  next: z.string().max(2048).optional(),
});

/** The workspace's settings, or undefined when it has none (or does not exist: the same answer). */
async function workspaceSettings(slug: string): Promise<SignInSettings | undefined> {
  const order = (await regionRegistry()).all().map((r) => r.code);
  return (await readPrimary((db) => signInSettings(db, slug, (org) => homeRegionOf(org, order)))) ?? undefined;
}

/**
 * `GET|POST /sign-in/sso/start` at a region's host: `workspace` (its provider) or `platform=1`
 * (the operators'). A workspace that lives in another region starts there instead, so the
 * provider's answer comes back where the workspace lives.
 */
export async function startSso(req: Request, form: URLSearchParams, here: Here): Promise<Response> {
  const input = StartInput.safeParse(Object.fromEntries(form));
  const region = here.region!;
  const base = (await regionBaseUrl(region)) ?? new URL(req.url).origin;
  const next = sameOriginPath(input.success ? input.data.next : undefined, base, '/arc');
  const workspace = input.success ? (input.data.workspace ?? null) : null;
  const fail = (code: SsoFailure, reason: string, orgId: string | null = null) =>
    auditFailure(code, here, { orgId, reason, extra: workspace ? { workspace } : {} }).then(() =>
      backToSignIn(code, { workspace, next }),
    );
  if (!input.success || (!workspace && !input.data.platform)) return fail('sso_not_configured', 'no workspace named');
  try {
    await consumeOrRefuse(SSO_LIMITS.start, addressBucket(here.address), 'too many sign-ins started');
  } catch (e) {
    if (isAppError(e) && e.code === 'rate_limited') return backToSignIn('rate_limited', { workspace, next });
    throw e;
  }

  let provider: ProviderSettings;
  let orgId: string | null = null;
  if (workspace) {
    const settings = await workspaceSettings(workspace);
    // A workspace without SSO and one that does not exist answer the same.
    if (!settings) return fail('sso_not_configured', 'the workspace has no single sign-on');
    if (settings.status === 'suspended') return fail('organization_suspended', 'suspended', settings.orgId);
    if (settings.homeRegion && settings.homeRegion !== region) {
      const home = await regionBaseUrl(settings.homeRegion);
      if (home) return see(`${home}${SSO_PATH}/start?${new URLSearchParams({ workspace, next })}`);
    }
    provider = settings;
    orgId = settings.orgId;
  } else {
    const platform = platformProvider();
    if (!platform) return fail('sso_not_configured', 'platform single sign-on is not configured');
    provider = platform;
  }

  let config: oidc.Configuration;
  try {
    config = await oidcConfiguration(provider);
  } catch (e) {
    logger.warn({ err: e, issuer: provider.issuer }, 'sso: discovery failed');
    return fail('sso_unavailable', `discovery failed: ${(e as Error).message}`, orgId);
  }
  const pending: Pending = {
    state: oidc.randomState(),
    verifier: oidc.randomPKCECodeVerifier(),
    nonce: oidc.randomNonce(),
    orgId,
    workspace,
    region,
    next,
  };
  await writePrimary(async (db) => {
    await db.ssoState.create({
      data: {
        stateHash: sha256(pending.state),
        orgId,
        region,
        expiresAt: new Date(Date.now() + SSO_STATE_TTL_S * 1000),
      },
    });
    // States nobody came back for (indexed; touches only expired rows).
    await db.ssoState.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${base}${SSO_CALLBACK_PATH}`,
    scope: SCOPES,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
  });
  return see(url.href, [ssoCookie(sealSecret(JSON.stringify(pending), COOKIE_CONTEXT), SSO_STATE_TTL_S, req.headers)]);
}

function readPending(headers: Headers): Pending | undefined {
  const raw = cookieValue(headers, SSO_COOKIE);
  if (!raw) return undefined;
  try {
    return Pending.parse(JSON.parse(openSecret(raw, COOKIE_CONTEXT)));
  } catch {
    return undefined; // altered, another key's, or not ours: as good as absent
  }
}

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(sha256(a), 'hex');
  const y = Buffer.from(sha256(b), 'hex');
  return timingSafeEqual(x, y);
};

/**
 * An error's codes, messages and the claim it names, through its causes, for the audit trail
 * (openid-client wraps oauth4webapi's errors; the innermost says which check failed). Never the
 * token's claims themselves.
 */
function errorDetail(e: unknown): { codes: string[]; reason: string; claim?: string } {
  const codes: string[] = [];
  const messages: string[] = [];
  let claim: string | undefined;
  for (let c: unknown = e, i = 0; c && i < 6; c = (c as { cause?: unknown }).cause, i++) {
    const { code, error, message } = c as { code?: unknown; error?: unknown; message?: unknown };
    if (typeof code === 'string') codes.push(code);
    if (typeof error === 'string') codes.push(error);
    if (typeof message === 'string' && !messages.includes(message)) messages.push(message);
    const named = (c as { claim?: unknown }).claim;
    if (typeof named === 'string') claim = named;
  }
  return { codes, reason: messages.join(': ').slice(0, 500) || String(e), ...(claim ? { claim } : {}) };
}
const errorCodes = (e: unknown) => errorDetail(e).codes;

/** Which failure a token exchange's error is: the provider refused, could not be reached, or its ID token failed a check. */
function grantFailure(e: unknown): SsoFailure {
  if (e instanceof oidc.AuthorizationResponseError || e instanceof oidc.ResponseBodyError) return 'sso_idp_refused';
  const codes = errorCodes(e);
  const name = (e as { name?: string })?.name;
  if (
    name === 'TimeoutError' ||
    name === 'AbortError' ||
    (e instanceof TypeError && /fetch failed/.test(e.message)) ||
    codes.some((c) => /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|UND_ERR/.test(c))
  ) {
    return 'sso_unavailable';
  }
  return 'sso_token_invalid';
}

/**
 * `GET /sign-in/sso/callback` at a region's host. Every failure goes back to the sign-in page
 * with its code and is audited; the state is spent whatever happens.
 */
export async function ssoCallback(req: Request, here: Here): Promise<Response> {
  const url = new URL(req.url);
  const state = url.searchParams.get('state') ?? '';
  const pending = readPending(req.headers);
  const clear = ssoCookie('', 0, req.headers);
  const region = here.region!;
  const base = (await regionBaseUrl(region)) ?? url.origin;
  const next = pending?.next ?? '/arc';
  const workspace = pending?.workspace ?? null;
  const fail = async (code: SsoFailure, reason: string, extra: Record<string, unknown> = {}) => {
    await auditFailure(code, here, { orgId: pending?.orgId ?? null, reason, extra });
    return backToSignIn(code, { workspace, next }, [clear]);
  };
  try {
    await consumeOrRefuse(SSO_LIMITS.callback, addressBucket(here.address), 'too many sign-in callbacks');
  } catch (e) {
    if (isAppError(e) && e.code === 'rate_limited') return backToSignIn('rate_limited', { workspace, next }, [clear]);
    throw e;
  }

  // The state, once: the row goes as it is read, so a replayed callback finds nothing.
  const row = /^[A-Za-z0-9_-]{16,128}$/.test(state)
    ? await writePrimary((db) => runOne(db, consumeSsoState, sha256(state)))
    : undefined;
  if (!row) return fail('sso_state_invalid', 'the state is unknown, used or expired');
  if (!pending || !sameSecret(pending.state, state)) {
    return fail('sso_state_invalid', 'the state was not started in this browser');
  }
  if (row.region !== region || pending.region !== region || row.orgId !== pending.orgId) {
    return fail('sso_state_invalid', 'the state belongs to another region or provider');
  }

  let provider: ProviderSettings;
  let settings: SignInSettings | undefined;
  if (pending.workspace) {
    settings = await workspaceSettings(pending.workspace);
    if (!settings || settings.orgId !== pending.orgId) return fail('sso_not_configured', 'single sign-on was removed');
    if (settings.status === 'suspended') return fail('organization_suspended', 'suspended');
    provider = settings;
  } else {
    const platform = platformProvider();
    if (!platform) return fail('sso_not_configured', 'platform single sign-on is not configured');
    provider = platform;
  }

  let claims: Record<string, unknown>;
  try {
    const config = await oidcConfiguration(provider);
    // The URL the provider sent the browser to, as registered (not the Host this request named).
    const current = new URL(`${base}${SSO_CALLBACK_PATH}${url.search}`);
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    // Signature (the provider's JWKS), iss, aud (and azp), exp, iat and nonce: checked by
    // openid-client as it parsed the token response; a failure threw above.
    claims = { ...tokens.claims()! };
  } catch (e) {
    const { codes, reason, claim } = errorDetail(e);
    return fail(grantFailure(e), reason, { errors: codes, ...(claim ? { claim } : {}) });
  }

  let user: SessionSubject;
  let orgId: string | null;
  try {
    const email = verifiedEmail(claims);
    const verified = { sub: String(claims.sub), email: email.email, name: email.name, raw: claims };
    if (settings) {
      const member = await organizationMember(
        { id: settings.orgId, allowedDomains: settings.allowedDomains, defaultRole: settings.defaultRole },
        verified,
        here.requestId,
      );
      user = member.user;
      orgId = settings.orgId;
    } else {
      const op = await platformOperator(platformProvider()!, verified, here.requestId);
      user = op.user;
      orgId = op.orgId;
    }
  } catch (e) {
    if (e instanceof SsoRefusal) return fail(e.code, e.message, e.audit);
    throw e;
  }

  const session = await sessionSetCookie(user, orgId, req.headers, settings ? settings.orgId : 'platform');
  await writePrimary((db) =>
    recordAudit(db, {
      action: 'auth.sign_in',
      targetType: 'user',
      targetId: user.id,
      actorId: user.id,
      orgId,
      region,
      requestId: here.requestId,
      metadata: {
        address: here.address,
        email: user.email,
        via: 'sso',
        provider: settings ? 'organization' : 'platform',
        issuer: provider.issuer,
        sub: String(claims.sub),
      },
    }),
  ).catch(() => {}); // the audit write never decides a sign-in
  return see(next, [session, clear]);
}
