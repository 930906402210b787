// openid-client configurations (discovery, JWKS) per identity provider, kept a while per process,
// and the platform's provider from the environment. docs/flows/single-sign-on.md
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { LRUCache } from 'lru-cache';
import { env } from '../env';
import { processSingleton } from '../process-singletons';

export interface ProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** How long a discovered configuration (and its key set) is reused before discovery runs again. */
const CONFIG_TTL_MS = 10 * 60_000;

const configs = () =>
  processSingleton(
    'sso-oidc-configs',
    () => new LRUCache<string, Promise<oidc.Configuration>>({ max: 500, ttl: CONFIG_TTL_MS }),
  );

/** Hosts whose issuer may be plain http (the demo's and the tests' provider), when allowed. */
const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\]|[a-z0-9-]+\.localhost)$/i;

/**
 * Whether `issuer` may be used: https, or http on a loopback host when SSO_ALLOW_LOOPBACK_HTTP
 * is on (the demo, tests). Never credentials, a query or a fragment in it.
 */
export function issuerProblem(issuer: string): string | undefined {
  let u: URL;
  try {
    u = new URL(issuer);
  } catch {
    return 'not a URL';
  }
  if (u.username || u.password || u.search || u.hash) return 'an issuer has no credentials, query or fragment';
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:' && LOOPBACK.test(u.hostname) && env().SSO_ALLOW_LOOPBACK_HTTP === 'on') return undefined;
  return 'an issuer must be an https:// URL';
}

/**
 * The client for `p`: discovery at `{issuer}/.well-known/openid-configuration` (whose `issuer`
 * must equal `p.issuer`), the secret sent by HTTP Basic, and ID tokens checked with the
 * configured clock tolerance. A failed discovery is not kept (the next sign-in tries again).
 */
export function oidcConfiguration(p: ProviderSettings): Promise<oidc.Configuration> {
  const key = createHash('sha256')
    .update(JSON.stringify([p.issuer, p.clientId, p.clientSecret]))
    .digest('hex');
  const cache = configs();
  const hit = cache.get(key);
  if (hit) return hit;
  const problem = issuerProblem(p.issuer);
  if (problem) return Promise.reject(new Error(`issuer refused: ${problem}`));
  const insecure = new URL(p.issuer).protocol === 'http:';
  const made = oidc
    .discovery(
      new URL(p.issuer),
      p.clientId,
      { [oidc.clockTolerance]: env().SSO_CLOCK_TOLERANCE_SECONDS },
      oidc.ClientSecretBasic(p.clientSecret),
      {
        timeout: env().SSO_HTTP_TIMEOUT_MS / 1000,
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
      },
    )
    .then((config) => {
      config.timeout = env().SSO_HTTP_TIMEOUT_MS / 1000;
      // An ID token from the token endpoint is checked against the provider's JWKS too: OIDC lets
      // a client trust TLS instead (and openid-client does by default); we check the signature.
      oidc.enableNonRepudiationChecks(config);
      return config;
    });
  cache.set(key, made);
  made.catch(() => cache.delete(key));
  return made;
}

/** The platform's (operators') provider, when PLATFORM_SSO_* is set. */
export function platformProvider(): (ProviderSettings & { claim: string; operatorValue: string }) | undefined {
  const e = env();
  if (!e.PLATFORM_SSO_ISSUER || !e.PLATFORM_SSO_CLIENT_ID || !e.PLATFORM_SSO_CLIENT_SECRET) return undefined;
  return {
    issuer: e.PLATFORM_SSO_ISSUER,
    clientId: e.PLATFORM_SSO_CLIENT_ID,
    clientSecret: e.PLATFORM_SSO_CLIENT_SECRET,
    claim: e.PLATFORM_SSO_CLAIM,
    operatorValue: e.PLATFORM_SSO_OPERATOR_VALUE,
  };
}
