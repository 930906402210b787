// Single sign-on's first step at a region's host: state, nonce and PKCE, then on to the identity
// provider (docs/flows/single-sign-on.md).
import * as oidc from 'openid-client';
import { z } from 'zod';
import { writePrimary } from '../db/primary-reads';
import { slugSchema } from '../directory/workspaces';
import { isAppError } from '../errors';
import { addressBucket } from '../net/client-address';
import { sameOriginPath } from '../net/redirect';
import { consumeOrRefuse } from '../rate-limits/limiters';
import { logger } from '../telemetry/logger';
import type { SsoFailure } from '../../lib/sso-failures';
import { SSO_CALLBACK_PATH } from './config';
import {
  auditFailure,
  backToSignIn,
  type Here,
  type Pending,
  regionBaseUrl,
  SCOPES,
  sealPending,
  see,
  sha256,
  SSO_LIMITS,
  SSO_PATH,
  SSO_STATE_TTL_S,
  ssoCookie,
  workspaceSettings,
} from './flow';
import { oidcConfiguration, platformProvider, type ProviderSettings } from './oidc-client';

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
  return see(url.href, [ssoCookie(sealPending(pending), SSO_STATE_TTL_S, req.headers)]);
}
