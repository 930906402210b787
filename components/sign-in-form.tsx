'use client';
// Email + password sign-in through Auth.js, with generic errors (never whether an email exists);
// an email whose domain a workspace's single sign-on takes is offered "Continue with SSO".
import { signIn } from 'next-auth/react';
import { useState, useSyncExternalStore, useTransition } from 'react';
import { SSO_REQUIRED_MESSAGE } from '~/lib/sso-failures';
import { ErrorAlert } from './ui/error-alert';
import { btnPrimary, btnSecondary, card } from './ui/styles';
import { TextField } from './ui/text-field';

const noSubscription = () => () => {};

interface Discovered {
  workspace: string;
  region: string;
  start_url: string;
}

/** The workspace whose SSO takes this email's domain (GET /sign-in/sso/discover), or null. */
async function discover(email: string, next: string): Promise<Discovered | null> {
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return null;
  try {
    const res = await fetch(`/sign-in/sso/discover?${new URLSearchParams({ email, next })}`, {
      headers: { accept: 'application/json' },
    });
    if (!res.ok) return null; // rate limited or unavailable: the password form still works
    const body = (await res.json()) as Discovered | { workspace: null };
    return body.workspace ? (body as Discovered) : null;
  } catch {
    return null;
  }
}

/**
 * The submit button is enabled only once the page is hydrated (the sign-in needs Auth.js' client):
 * before that a submit, even Enter in a field, does nothing, and the form is a POST regardless, so
 * a password never ends up in a URL (history, logs, Referer).
 */
export function SignInForm({ next, workspace }: { next: string; workspace?: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const [sso, setSso] = useState<(Discovered & { domain: string }) | null>(null);
  // false in the server's HTML, true once React runs in the browser.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

  return (
    <form
      method="post"
      className={`${card} space-y-4 p-6 shadow-sm`}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        setError(null);
        startTransition(async () => {
          const res = await signIn('credentials', {
            email: String(data.get('email') ?? ''),
            password: String(data.get('password') ?? ''),
            ...(workspace ? { workspace } : {}),
            redirect: false,
          });
          if (res?.error) {
            setError(
              res.code === 'rate_limited'
                ? 'Too many attempts. Wait a few minutes and try again.'
                : res.code === 'sso_required'
                  ? SSO_REQUIRED_MESSAGE
                  : 'Email or password is not right.',
            );
            return;
          }
          window.location.assign(next);
        });
      }}
    >
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="username"
        required
        onBlur={(e) => {
          const email = e.currentTarget.value.trim().toLowerCase();
          void discover(email, next).then((found) =>
            setSso(found ? { ...found, domain: email.slice(email.lastIndexOf('@') + 1) } : null),
          );
        }}
      />
      {sso && sso.workspace !== workspace && (
        <div role="status" className="space-y-2 rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
          <p>
            {sso.domain} signs in with single sign-on at the workspace <strong>{sso.workspace}</strong> (region{' '}
            {sso.region}).
          </p>
          <a href={sso.start_url} className={`${btnSecondary} w-full`}>
            Continue with SSO
          </a>
        </div>
      )}
      <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
      {error && <ErrorAlert>{error}</ErrorAlert>}
      <button type="submit" disabled={pending || !hydrated} className={`${btnPrimary} w-full`}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
