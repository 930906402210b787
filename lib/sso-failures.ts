// What a single sign-on that did not end signed in answers: a stable code (in the sign-in page's
// `?error=`, the audit trail and docs/flows/single-sign-on.md) and the sentence a person reads.
export const SSO_FAILURES = {
  sso_not_configured: 'Single sign-on is not set up for this workspace. Sign in with your email and password.',
  sso_unavailable: 'Your identity provider could not be reached. Try again in a minute.',
  sso_state_invalid:
    'That sign-in could not be finished: it expired, was already used, or began in another browser or region. Start again.',
  sso_idp_refused: 'Your identity provider did not sign you in. Start again, or ask your administrator.',
  sso_token_invalid:
    'Your identity provider’s answer failed Meridian’s checks (signature, issuer, audience, nonce or expiry). Ask your administrator.',
  sso_email_unverified: 'Your identity provider did not confirm your email address. Ask your administrator.',
  sso_domain_not_allowed: 'Your email address’s domain is not one this workspace signs in with single sign-on.',
  sso_account_conflict:
    'Your email address already has a Meridian account outside this workspace. Ask an administrator of the workspace to add you.',
  sso_not_operator: 'Your identity provider does not list you as a platform operator.',
  organization_suspended: 'This workspace is suspended.',
  rate_limited: 'Too many sign-in attempts from your network. Wait a few minutes and try again.',
} as const;

export type SsoFailure = keyof typeof SSO_FAILURES;

export function isSsoFailure(code: unknown): code is SsoFailure {
  return typeof code === 'string' && Object.hasOwn(SSO_FAILURES, code);
}

/** A password sign-in refused because the member's organization requires single sign-on. */
export const SSO_REQUIRED_MESSAGE = 'Your organization signs in with single sign-on: use “Sign in with SSO”.';
