'use client';
// A first admin's "set your password" form: the one-time token from their link and a new password
// (twice); then the way to sign in to their workspace.
import { useState, useTransition } from 'react';
import { setFirstPassword } from '~/server/api/actions/onboarding';
import { ErrorAlert } from './ui/error-alert';
import { btnPrimary, card, link } from './ui/styles';
import { TextField } from './ui/text-field';

export function SetPasswordForm({ token }: { token: string }) {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ workspace: string; sign_in_url: string } | null>(null);
  const [pending, startTransition] = useTransition();
  if (done) {
    return (
      <div className={`${card} space-y-3 p-6`} role="status">
        <p>
          Your password is set. Sign in to <span className="font-mono">{done.workspace}</span>.
        </p>
        <a href={done.sign_in_url} className={link}>
          Sign in
        </a>
      </div>
    );
  }
  return (
    <form
      method="post"
      className={`${card} space-y-4 p-6 shadow-sm`}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const password = String(data.get('password') ?? '');
        if (password !== String(data.get('again') ?? '')) return setError('The two passwords differ.');
        setError(null);
        startTransition(async () => {
          const res = await setFirstPassword({ token, password });
          if (res.ok) setDone(res.data);
          else setError(res.error.message);
        });
      }}
    >
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={12}
        required
        hint="At least 12 characters."
      />
      <TextField label="Repeat it" name="again" type="password" autoComplete="new-password" minLength={12} required />
      {error && <ErrorAlert>{error}</ErrorAlert>}
      <button type="submit" disabled={pending} className={`${btnPrimary} w-full`}>
        {pending ? 'Saving…' : 'Set password'}
      </button>
    </form>
  );
}
