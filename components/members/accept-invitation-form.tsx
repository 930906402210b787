'use client';
// Accepting an invitation: a new account's name and password, or an existing account's own
// password; then the same sign-in as the sign-in page, into the workspace. A workspace that
// requires single sign-on takes no new password: the person goes on to its provider.
import { signIn } from 'next-auth/react';
import { useState, useTransition } from 'react';
import { acceptInvitation } from '~/server/api/actions/members';
import { ErrorAlert } from '../ui/error-alert';
import { btnPrimary, card } from '../ui/styles';
import { TextField } from '../ui/text-field';

/** The accept procedure's rule, told before the round trip (server/auth/password.ts decides). */
const MIN_PASSWORD = 12;

export function AcceptInvitationForm({
  token,
  email,
  workspace,
  hasAccount,
  ssoRequired,
}: {
  token: string;
  email: string;
  workspace: string;
  hasAccount: boolean;
  ssoRequired: boolean;
}) {
  const noPassword = ssoRequired && !hasAccount;
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <form
      method="post"
      className={`${card} space-y-4 p-6 shadow-sm`}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const password = String(data.get('password') ?? '');
        if (!hasAccount && !noPassword && password !== String(data.get('confirm') ?? '')) {
          setError('The two passwords differ.');
          return;
        }
        setError(null);
        start(async () => {
          const res = await acceptInvitation({
            token,
            ...(noPassword ? {} : { password }),
            ...(hasAccount ? {} : { name: String(data.get('name') ?? '') }),
          });
          if (!res.ok) {
            setError(res.error.message);
            return;
          }
          if (res.data.sign_in === 'sso') {
            // Its members never sign in with a password: on to the workspace's provider (a route
            // handler that redirects off-site, so a full navigation, not the router).
            const start = new URL(
              `/sign-in/sso/start?${new URLSearchParams({ workspace, next: '/arc' })}`,
              window.location.href,
            );
            window.location.assign(start.href);
            return;
          }
          const signedIn = await signIn('credentials', { email, password, workspace, redirect: false });
          window.location.assign(signedIn?.error ? `/sign-in?workspace=${encodeURIComponent(workspace)}` : '/arc');
        });
      }}
    >
      <TextField label="Email" name="email" type="email" autoComplete="username" value={email} readOnly />
      {noPassword ? (
        <>
          <TextField label="Your name" name="name" autoComplete="name" maxLength={100} />
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {workspace} signs in with single sign-on: you choose no password here. After joining, you continue to your
            identity provider.
          </p>
        </>
      ) : hasAccount ? (
        <>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            You have a Meridian account: sign in with its password to join. Your other organizations stay as they are.
          </p>
          <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        </>
      ) : (
        <>
          <TextField label="Your name" name="name" autoComplete="name" maxLength={100} />
          <TextField
            label="Choose a password"
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={MIN_PASSWORD}
            maxLength={1024}
            hint={`At least ${MIN_PASSWORD} characters.`}
            required
          />
          <TextField
            label="Password again"
            name="confirm"
            type="password"
            autoComplete="new-password"
            minLength={MIN_PASSWORD}
            required
          />
        </>
      )}
      {error && <ErrorAlert>{error}</ErrorAlert>}
      <button type="submit" disabled={pending} className={`${btnPrimary} w-full`}>
        {pending
          ? 'Joining…'
          : noPassword
            ? 'Join and continue with SSO'
            : hasAccount
              ? 'Sign in and join'
              : 'Create account and join'}
      </button>
    </form>
  );
}
