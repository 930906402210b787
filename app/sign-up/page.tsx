// /sign-up at a region's host, when the deployment opened sign-up (MERIDIAN_SIGNUP=on): a new
// organization homed at this region, with you as its admin. At the global address: pick a region.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { SignUpForm } from '~/components/sign-up-form';
import { PageHeader } from '~/components/ui/page-header';
import { link } from '~/components/ui/styles';
import { isGlobalAddress } from '~/server/directory/page';
import { env } from '~/server/env';
import { signUpEnabled } from '~/server/organizations/signup';
import { requestHost } from '~/server/net/request-origin';
import { hostRegion } from '~/server/region/host-region';
import { regionRegistry } from '~/server/region/registry';

export const metadata: Metadata = { title: 'Sign up' };
export const dynamic = 'force-dynamic';

export default async function SignUpPage() {
  if (!signUpEnabled()) notFound();
  const h = await headers();
  const registry = await regionRegistry();
  if (isGlobalAddress(h)) {
    const open = registry.all().filter((r) => r.status === 'active');
    return (
      <div className="mx-auto mt-8 max-w-sm space-y-6">
        <PageHeader
          title="Sign up"
          description="Your workspace lives in one region: choose where, and sign up there."
          centered
        />
        <ul className="space-y-2" aria-label="Regions">
          {open.map((r) => (
            <li key={r.code}>
              <a href={`${r.baseUrl.replace(/\/$/, '')}/sign-up`} className={link}>
                {r.label} ({r.code})
              </a>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  const code = hostRegion(requestHost(h), env().MERIDIAN_HOST).label;
  const region = code ? registry.get(code) : undefined;
  if (!region) notFound();
  return (
    <div className="mx-auto mt-8 max-w-sm space-y-6">
      <PageHeader
        title="Create your workspace"
        description={`A new organization in ${region.label} (${region.code}), with you as its admin.`}
        centered
      />
      <SignUpForm region={region.code} />
    </div>
  );
}
