'use client';
// The organization's single sign-on: provider, client, domains, the role new people get, and
// "require SSO"; the client secret is write-only (server action organization.sso.update).
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { removeSso, saveSso } from '~/server/api/actions/sso';
import type { ErrorBody } from '~/server/errors';
import type { OrgRole } from '~/server/members/roles';
import { ErrorAlert } from '../../ui/error-alert';
import { SelectField } from '../../ui/select-field';
import { btnDangerOutline, btnPrimary, panel, sectionText } from '../../ui/styles';
import { TextField } from '../../ui/text-field';

interface Saved {
  issuer: string;
  client_id: string;
  allowed_domains: string[];
  default_role: OrgRole;
  require_sso: boolean;
  redirect_uris: Record<string, string>;
}

export function SsoSettingsForm({ saved, roles }: { saved: Saved | null; roles: readonly OrgRole[] }) {
  const router = useRouter();
  const [error, setError] = useState<ErrorBody['error'] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <div className="space-y-6">
      <form
        className={`${panel} space-y-4`}
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          const secret = String(data.get('client_secret') ?? '');
          setError(null);
          setNotice(null);
          start(async () => {
            const res = await saveSso({
              issuer: String(data.get('issuer') ?? ''),
              client_id: String(data.get('client_id') ?? ''),
              ...(secret ? { client_secret: secret } : {}),
              allowed_domains: String(data.get('allowed_domains') ?? '')
                .split(/[\s,]+/)
                .filter(Boolean),
              default_role: String(data.get('default_role') ?? 'member') as OrgRole,
              require_sso: data.get('require_sso') === 'on',
            });
            if (!res.ok) return setError(res.error);
            setNotice('Saved. Your identity provider answered.');
            router.refresh();
          });
        }}
      >
        <TextField
          label="Issuer URL"
          name="issuer"
          type="url"
          required
          defaultValue={saved?.issuer}
          placeholder="https://example.okta.com"
          hint="Meridian reads {issuer}/.well-known/openid-configuration when you save."
        />
        <TextField label="Client ID" name="client_id" required defaultValue={saved?.client_id} />
        <TextField
          label="Client secret"
          name="client_secret"
          type="password"
          autoComplete="off"
          required={!saved}
          hint={
            saved ? 'Stored encrypted and never shown. Leave empty to keep it.' : 'Stored encrypted and never shown.'
          }
        />
        <TextField
          label="Allowed email domains"
          name="allowed_domains"
          required
          defaultValue={saved?.allowed_domains.join(', ')}
          placeholder="example.com"
          hint="Comma-separated. People of these domains are added as members on their first sign-in."
        />
        <SelectField
          label="Role of people added by SSO"
          name="default_role"
          defaultValue={saved?.default_role ?? 'member'}
        >
          {roles.map((r) => (
            <option key={r} value={r}>
              {r[0]!.toUpperCase() + r.slice(1)}
            </option>
          ))}
        </SelectField>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" name="require_sso" defaultChecked={saved?.require_sso} className="mt-1" />
          <span>
            <span className="font-medium">Require SSO</span>
            <span className={`block ${sectionText}`}>
              Members can no longer sign in with a password. Sign in with SSO once before you turn this on.
            </span>
          </span>
        </label>
        {error && <ErrorAlert requestId={error.request_id}>{error.message}</ErrorAlert>}
        {notice && (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
            {notice}
          </p>
        )}
        <button type="submit" disabled={pending} className={btnPrimary}>
          {pending ? 'Checking your provider…' : 'Save'}
        </button>
      </form>
      {saved && (
        <section className={`${panel} space-y-3`} aria-labelledby="redirect-heading">
          <h2 id="redirect-heading" className="font-medium">
            Redirect URIs
          </h2>
          <p className={sectionText}>Register each at your identity provider: sign-ins come back to your region.</p>
          <ul className="space-y-1 font-mono text-sm break-all">
            {Object.entries(saved.redirect_uris).map(([region, uri]) => (
              <li key={region}>{uri}</li>
            ))}
          </ul>
          <button
            type="button"
            className={btnDangerOutline}
            disabled={pending}
            onClick={() =>
              start(async () => {
                setError(null);
                const res = await removeSso(undefined);
                if (!res.ok) return setError(res.error);
                setNotice('Single sign-on is off: passwords work again.');
                router.refresh();
              })
            }
          >
            Turn single sign-on off
          </button>
        </section>
      )}
    </div>
  );
}
