// /sign-in: email and password or single sign-on, then back to the page that asked (same site
// only); with `?workspace=` at a region's host it names and signs in to that workspace.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { GlobalSignIn } from '~/components/directory/global-sign-in';
import { SignInForm } from '~/components/sign-in-form';
import { SsoOperatorButton, SsoWorkspaceButton, SsoWorkspaceForm } from '~/components/sso-sign-in';
import { ErrorAlert } from '~/components/ui/error-alert';
import { isSsoFailure, SSO_FAILURES } from '~/lib/sso-failures';
import { PageHeader } from '~/components/ui/page-header';
import { link } from '~/components/ui/styles';
import { globalPageState, isGlobalAddress } from '~/server/directory/page';
import { signInRegions } from '~/server/directory/sign-in';
import { env, globalUrl } from '~/server/env';
import { requestHost, requestOrigin } from '~/server/net/request-origin';
import { sameOriginPath } from '~/server/net/redirect';
import { hostRegion } from '~/server/region/host-region';
import { regionRegistry } from '~/server/region/registry';
import { signUpEnabled } from '~/server/organizations/signup';
import { platformProvider } from '~/server/sso/oidc-client';

export const metadata: Metadata = { title: 'Sign in' };

const SLUG = /^[a-z0-9][a-z0-9-]{1,62}$/;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; workspace?: string; error?: string; region?: string }>;
}) {
  const { callbackUrl, workspace: rawWorkspace, error, region: downRegion } = await searchParams;
  const h = await headers();
  // Reached from the directory: name the workspace and this region, and link back. The page is
  // the same whether the workspace exists here or is a decoy (only the sign-in itself can tell).
  const label = hostRegion(requestHost(h), env().MERIDIAN_HOST).label;
  const region = label ? (await regionRegistry()).get(label) : undefined;
  const workspace = typeof rawWorkspace === 'string' && SLUG.test(rawWorkspace) ? rawWorkspace : undefined;
  // A single sign-on that came back without a session says why (server/sso/flow.ts).
  const ssoError = isSsoFailure(error) ? SSO_FAILURES[error] : undefined;
  if (workspace && region) {
    const next = sameOriginPath(typeof callbackUrl === 'string' ? callbackUrl : undefined, requestOrigin(h), '/arc');
    return (
      <div className="mx-auto mt-8 max-w-sm space-y-6">
        <PageHeader
          title={
            <>
              Sign in to <span className="font-mono">{workspace}</span>
            </>
          }
          description={`${region.label} region (${region.code})`}
          centered
        />
        {ssoError && <ErrorAlert>{ssoError}</ErrorAlert>}
        <SignInForm next={next} workspace={workspace} />
        <SsoWorkspaceButton workspace={workspace} next={next} />
        {next.startsWith('/sign-in/handoff/issue?') && <ReturnNote />}
        <p className="text-center text-sm text-slate-600 dark:text-slate-300">
          Not your region?{' '}
          <a href={`${globalUrl()}/`} className={link}>
            Find your workspace
          </a>
        </p>
      </div>
    );
  }
  // Only this origin: never bounce a user elsewhere after sign-in (server/net/redirect.ts).
  const next = sameOriginPath(typeof callbackUrl === 'string' ? callbackUrl : undefined, requestOrigin(h), '/arc');
  if (isGlobalAddress(h)) {
    // No password is typed at the global address: the session comes back from a region.
    const page = globalPageState(h);
    return (
      <div className="mx-auto mt-8 max-w-md space-y-6">
        <PageHeader
          title="Sign in to Meridian"
          description="Arc for your organization, Atlas for operators."
          centered
        />
        <GlobalSignIn
          next={next}
          regions={await signInRegions().catch(() => [])}
          remembered={str(rawWorkspace)?.slice(0, 63) ?? page.remembered}
          error={str(error)}
          downRegion={str(downRegion)?.slice(0, 100)}
        />
      </div>
    );
  }
  const returning = next.startsWith('/sign-in/handoff/issue?');
  return (
    <div className="mx-auto mt-8 max-w-sm space-y-6">
      <PageHeader title="Sign in to Meridian" description="Arc for your organization, Atlas for operators." centered />
      {ssoError && <ErrorAlert>{ssoError}</ErrorAlert>}
      <SignInForm next={next} />
      {label && <SsoWorkspaceForm next={next} />}
      {label && platformProvider() && <SsoOperatorButton next={next} />}
      {returning && <ReturnNote />}
      {label && signUpEnabled() && (
        <p className="text-center text-sm text-slate-600 dark:text-slate-300">
          No workspace yet?{' '}
          <Link href="/sign-up" className={link}>
            Create one here
          </Link>
        </p>
      )}
      {!label && (
        <p className="text-center text-sm text-slate-600 dark:text-slate-300">
          Signing in to your organization?{' '}
          <Link href="/" className={link}>
            Find your workspace
          </Link>{' '}
          and sign in at its region.
        </p>
      )}
    </div>
  );
}

/** Reached from the global address's sign-in: where the browser goes once signed in here. */
function ReturnNote() {
  return (
    <p className="text-center text-sm text-slate-600 dark:text-slate-300">
      Once signed in here you go back to <span className="font-mono">{new URL(globalUrl()).host}</span>, signed in.
    </p>
  );
}
