'use client';
// A new organization, as an operator creates it: its slug (the workspace, unique across every
// region), name, home region, allowed regions and first admin. A new admin's one-time link to set
// a password is shown once, here, to hand over.
import Link from 'next/link';
import { useState, useTransition } from 'react';
import { createOrganization } from '~/server/api/actions/atlas/organizations';
import { fieldErrors } from '../arc/action-errors';
import { minuteUtc } from '../format';
import { CopyButton } from '../ui/copy-button';
import { ErrorAlert } from '../ui/error-alert';
import { RegionCheckbox } from '../ui/region-checkbox';
import { SelectField } from '../ui/select-field';
import { btnPrimary, fieldHint, link, panel } from '../ui/styles';
import { TextField } from '../ui/text-field';

interface Region {
  code: string;
  label: string;
  status: string;
}

type Created = {
  organization: { id: string; slug: string; name: string; allowed_regions: string[] };
  first_admin: { email: string; existing_user: boolean; setup_link: { url: string; expires_at: string } | null };
};

export function OrganizationCreateForm({ regions }: { regions: Region[] }) {
  const open = regions.filter((r) => r.status === 'active');
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [home, setHome] = useState(open[0]?.code ?? '');
  const [others, setOthers] = useState<string[]>([]);
  const [email, setEmail] = useState('');
  const [adminName, setAdminName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [created, setCreated] = useState<Created | undefined>();
  const [pending, start] = useTransition();

  if (created) return <CreatedOrganization created={created} onAnother={() => setCreated(undefined)} />;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    setFailure(undefined);
    start(async () => {
      const res = await createOrganization({
        slug: slug.trim().toLowerCase(),
        name: name.trim(),
        home_region: home,
        allowed_regions: [home, ...others.filter((r) => r !== home)],
        admin_email: email.trim(),
        ...(adminName.trim() ? { admin_name: adminName.trim() } : {}),
      });
      if (res.ok) {
        setCreated(res.data as Created);
        setSlug('');
        setName('');
        setEmail('');
        setAdminName('');
        setOthers([]);
        return;
      }
      const byField = fieldErrors(res.error as unknown as Record<string, unknown>);
      if (res.error.code === 'slug_taken') byField.slug = res.error.message;
      setErrors(byField);
      if (Object.keys(byField).length === 0) setFailure(`${res.error.message} (${res.error.request_id})`);
    });
  };

  return (
    <form onSubmit={submit} className={`${panel} space-y-4`} aria-label="New organization" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Slug"
          hint="The workspace people type to sign in: a–z, 0–9 and -, unique in every region"
          value={slug}
          onChange={(e) => setSlug(e.target.value)}
          error={errors.slug}
          required
          maxLength={63}
          autoComplete="off"
          inputClassName="font-mono"
        />
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          required
          maxLength={100}
        />
        <SelectField
          label="Home region"
          hint="Where the directory sends its people; its cell reserves the slug"
          value={home}
          onChange={(e) => setHome(e.target.value)}
          error={errors.home_region}
          selectClassName="font-mono"
        >
          {open.map((r) => (
            <option key={r.code} value={r.code}>
              {r.code} · {r.label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="First admin’s email"
          hint="An existing user, or a new one who gets a link to set a password"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.admin_email}
          required
          maxLength={320}
          autoComplete="off"
        />
        <TextField
          label="First admin’s name (optional)"
          value={adminName}
          onChange={(e) => setAdminName(e.target.value)}
          error={errors.admin_name}
          maxLength={100}
        />
      </div>
      {open.length > 1 && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Other allowed regions</legend>
          <p className={fieldHint}>The home region is always allowed; add any other it may run clusters in.</p>
          <div className="grid gap-2 sm:grid-cols-3">
            {open
              .filter((r) => r.code !== home)
              .map((r) => (
                <RegionCheckbox
                  key={r.code}
                  id={`new-org-region-${r.code}`}
                  code={r.code}
                  label={r.label}
                  hint="allowed too"
                  checked={others.includes(r.code)}
                  onChange={(on) => setOthers((o) => (on ? [...o, r.code] : o.filter((x) => x !== r.code)))}
                />
              ))}
          </div>
        </fieldset>
      )}
      {failure && <ErrorAlert>The organization was not created: {failure}</ErrorAlert>}
      <button type="submit" className={btnPrimary} disabled={pending}>
        {pending ? 'Creating…' : 'Create organization'}
      </button>
    </form>
  );
}

function CreatedOrganization({ created, onAnother }: { created: Created; onAnother: () => void }) {
  const { organization: o, first_admin: admin } = created;
  return (
    <div
      role="status"
      data-testid="org-created"
      className="space-y-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 dark:border-emerald-800 dark:bg-emerald-950"
    >
      <p className="font-medium">
        {o.name} (<span className="font-mono">{o.slug}</span>) is ready in {o.allowed_regions.join(', ')}.
      </p>
      {admin.setup_link ? (
        <div className="space-y-2">
          <p className="text-sm">
            Give {admin.email} this link to set a password (it works once, until{' '}
            {minuteUtc(admin.setup_link.expires_at)}). It will not be shown again.
          </p>
          <div className="flex items-center gap-2">
            <code
              data-testid="setup-link"
              className="break-all rounded bg-white px-2 py-1 font-mono text-xs dark:bg-slate-900"
            >
              {admin.setup_link.url}
            </code>
            <CopyButton value={admin.setup_link.url} label="Copy the link" />
          </div>
        </div>
      ) : (
        <p className="text-sm">{admin.email} already has an account: they sign in and find the new organization.</p>
      )}
      <p className="flex flex-wrap gap-4 text-sm">
        <Link href={`/atlas/organizations/${o.id}`} className={link}>
          Open {o.slug}
        </Link>
        <button type="button" className={link} onClick={onAnother}>
          Create another
        </button>
      </p>
    </div>
  );
}
