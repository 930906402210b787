'use client';
// Email + password sign-in through Auth.js, with generic errors (never whether an email exists).
import { signIn } from 'next-auth/react';
import { useState, useSyncExternalStore, useTransition } from 'react';
import { ErrorAlert } from './ui/error-alert';
import { btnPrimary, card } from './ui/styles';
import { TextField } from './ui/text-field';

const noSubscription = () => () => {};

/**
 * The submit button is enabled only once the page is hydrated (the sign-in needs Auth.js' client):
 * before that a submit, even Enter in a field, does nothing, and the form is a POST regardless, so
 * a password never ends up in a URL (history, logs, Referer).
 */
export function SignInForm({ next, workspace }: { next: string; workspace?: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
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
                : 'Email or password is not right.',
            );
            return;
          }
          window.location.assign(next);
        });
      }}
    >
      <TextField label="Email" name="email" type="email" autoComplete="username" required />
      <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
      {error && <ErrorAlert>{error}</ErrorAlert>}
      <button type="submit" disabled={pending || !hydrated} className={`${btnPrimary} w-full`}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
