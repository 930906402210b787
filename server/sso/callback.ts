// Single sign-on's second step at a region's host: the state once, the code for tokens, the ID
// token checked by openid-client, the person, the session (docs/flows/single-sign-on.md).
import { timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import { recordAudit } from '../audit/audit';
import { sessionSetCookie, type SessionSubject } from '../auth/session-cookie';
import { recordSession } from '../auth/session-records';
import { writePrimary } from '../db/primary-reads';
import { runOne } from '../db/sql';
import { isAppError } from '../errors';
import { addressBucket } from '../net/client-address';
import { consumeOrRefuse } from '../rate-limits/limiters';
import type { SsoFailure } from '../../lib/sso-failures';
import { SSO_CALLBACK_PATH, type SignInSettings } from './config';
import {
  auditFailure,
  backToSignIn,
  type Here,
  readPending,
  regionBaseUrl,
  see,
  sha256,
  SSO_LIMITS,
  ssoCookie,
  workspaceSettings,
} from './flow';
import { oidcConfiguration, platformProvider, type ProviderSettings } from './oidc-client';
import { organizationMember, platformOperator, SsoRefusal, verifiedEmail } from './people';
import { consumeSsoState } from './states.sql';

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

  const sid = await recordSession({ userId: user.id, via: 'sso', region, headers: req.headers });
  const session = await sessionSetCookie(user, orgId, req.headers, {
    sso: settings ? settings.orgId : 'platform',
    sid,
  });
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
