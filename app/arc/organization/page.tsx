// /arc/organization: the organization's identity and defaults, its regions and its members; its
// admins delete it here (offboarding, cancellable for 7 days).
import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import { OffboardOwnOrganization } from '~/components/arc/organization/offboard-own';
import { fullDate } from '~/components/format';
import { CopyButton } from '~/components/ui/copy-button';
import { EmptyState } from '~/components/ui/empty-state';
import { Fact } from '~/components/ui/fact';
import { PageHeader } from '~/components/ui/page-header';
import { card } from '~/components/ui/styles';
import { Tag } from '~/components/ui/tag';
import { serverApi } from '~/server/api/server-caller';

export const metadata: Metadata = { title: 'Organization' };
export const dynamic = 'force-dynamic';

/** Admins stand out from members. */
const roleTone = (role: string) => (role === 'admin' ? 'indigo' : 'slate');

export default async function OrganizationPage() {
  const me = await arcMe();
  const org = await (await serverApi()).organization.get();
  const members = [...org.members].sort((a, b) => a.email.localeCompare(b.email));
  return (
    <div className="space-y-8">
      <PageHeader eyebrow="Organization" title={org.name}>
        <dl className="flex flex-wrap gap-x-8 gap-y-2">
          <Fact label="Slug">
            <span className="font-mono">{org.slug}</span>
          </Fact>
          <Fact label="ID">
            <span className="flex items-center gap-1.5">
              <code className="font-mono text-xs">{org.id}</code>
              <CopyButton value={org.id} label="Copy organization ID" compact />
            </span>
          </Fact>
          <Fact label="Default region" testId="org-default-region">
            <span className="font-mono">{org.default_region ?? 'none'}</span>
          </Fact>
          <Fact label="Your role">
            {org.role ? (
              <Tag tone={roleTone(org.role)} pill>
                {org.role}
              </Tag>
            ) : (
              '—'
            )}
          </Fact>
        </dl>
        {!org.default_region && org.allowed_regions.length > 1 && (
          <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-300">
            With no default region, every change names its region: pick one in a form, or use a project that has a
            default region.
          </p>
        )}
      </PageHeader>

      <section aria-labelledby="regions-heading" className="space-y-3">
        <h2 id="regions-heading" className="text-lg font-semibold">
          Regions <span className="text-sm font-normal text-slate-500">({org.allowed_regions.length})</span>
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {org.allowed_regions.map((r) => (
            <li key={r.code} className={`${card} flex items-center gap-3 p-4`}>
              <span
                aria-hidden
                className="flex h-10 w-10 shrink-0 items-center justify-center rounded-md bg-slate-100 font-mono text-xs font-semibold text-slate-600 dark:bg-slate-800 dark:text-slate-300"
              >
                {r.country}
              </span>
              <div className="min-w-0 flex-1">
                <p className="flex items-center gap-2">
                  <span className="font-mono font-semibold">{r.code}</span>
                  {r.code === org.default_region && <Tag tone="indigo">default</Tag>}
                  {r.code === me.settings?.default_region && r.code !== org.default_region && <Tag>your default</Tag>}
                </p>
                <p className="truncate text-sm text-slate-600 dark:text-slate-400">
                  {r.label} · {r.country}
                </p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="members-heading" className="space-y-3">
        <h2 id="members-heading" className="text-lg font-semibold">
          Members <span className="text-sm font-normal text-slate-500">({members.length})</span>
        </h2>
        <div className={card}>
          {members.length === 0 ? (
            <EmptyState title="No members" />
          ) : (
            <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Members">
              {members.map((m) => (
                <li key={m.user_id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3">
                  <span
                    aria-hidden
                    className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-slate-200 text-sm font-semibold uppercase text-slate-700 dark:bg-slate-700 dark:text-slate-200"
                  >
                    {(m.name || m.email).charAt(0)}
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium">
                      {m.name || m.email}
                      {m.user_id === me.user?.id && <span className="ml-1.5 text-xs text-slate-500">(you)</span>}
                    </p>
                    <p className="truncate text-xs text-slate-500 dark:text-slate-400">{m.email}</p>
                  </div>
                  <Tag tone={roleTone(m.role)} pill>
                    {m.role}
                  </Tag>
                  <span className="w-full pl-12 text-xs text-slate-500 sm:w-auto sm:pl-0 dark:text-slate-400">
                    joined {fullDate(m.joined_at).slice(0, 10)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      {org.role === 'admin' && (
        <section aria-labelledby="delete-heading" className="space-y-3">
          <h2 id="delete-heading" className="text-lg font-semibold">
            Delete this organization
          </h2>
          <OffboardOwnOrganization slug={org.slug} status={org.status} purgeAfter={org.purge_after} />
        </section>
      )}
    </div>
  );
}
