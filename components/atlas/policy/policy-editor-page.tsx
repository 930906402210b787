'use client';
// Atlas → Policy: an organization's (or the platform default's) routing policy, its draft, history
// and gateways. docs/flows/routing-policy.md
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useTRPC } from '../../trpc-provider';
import { ErrorAlert } from '../../ui/error-alert';
import { SelectField } from '../../ui/select-field';
import { SkeletonRows } from '../../ui/skeleton';
import { PolicyCurrentVersion } from './policy-current-version';
import { PolicyDraft } from './policy-draft';
import { PolicyGateways } from './policy-gateways';
import { PolicyHistory } from './policy-history';

export function PolicyEditorPage({ org }: { org: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const orgs = useQuery(trpc.atlas.organizations.list.queryOptions({ limit: 200 }));
  const regions = useQuery(trpc.atlas.regions.list.queryOptions({}));
  const policy = useQuery(trpc.atlas.policies.list.queryOptions({ org, limit: 1 }, { refetchInterval: 10_000 }));
  const label = org === 'default' ? 'the platform default' : (policy.data?.org?.slug ?? org);

  return (
    <div className="space-y-6">
      <div className="max-w-sm">
        <SelectField
          label="Policy of"
          name="org"
          value={org}
          onChange={(e) => router.replace(`/atlas/policy?org=${encodeURIComponent(e.target.value)}`)}
          hint="The platform default applies to organizations without a version of their own."
        >
          <option value="default">Platform default</option>
          {(orgs.data?.data ?? []).map((o) => (
            <option key={o.id} value={o.slug}>
              {o.slug} ({o.name})
            </option>
          ))}
          {/* Reached by ID or a slug not (yet) in the list: still selectable. */}
          {org !== 'default' && !(orgs.data?.data ?? []).some((o) => o.slug === org) && (
            <option value={org}>{org}</option>
          )}
        </SelectField>
      </div>

      {policy.isError && <ErrorAlert>The policy could not be read: {policy.error.message}</ErrorAlert>}
      {(policy.isPending || regions.isPending) && <SkeletonRows rows={4} label="Loading the policy…" />}
      {policy.data && regions.data && (
        <>
          <PolicyCurrentVersion data={policy.data} label={label} />
          {(policy.data.current || policy.data.org) && (
            <PolicyDraft
              key={`${org}@${policy.data.current?.version ?? 'none'}`}
              org={org}
              label={label}
              data={policy.data}
              regions={regions.data.data}
            />
          )}
          <PolicyHistory org={org} label={label} current={policy.data.current} />
        </>
      )}
      <PolicyGateways />
    </div>
  );
}
