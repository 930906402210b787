'use client';
// Self-serve sign-up at a region (MERIDIAN_SIGNUP=on): your organization (its name and slug, unique
// in every region) and you as its admin; then the way to sign in to it.
import { useState, useTransition } from 'react';
import { signUp } from '~/server/api/actions/onboarding';
import { fieldErrors } from './arc/action-errors';
import { ErrorAlert } from './ui/error-alert';
import { btnPrimary, card, link } from './ui/styles';
import { TextField } from './ui/text-field';

export function SignUpForm({ region }: { region: string }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<{ slug: string; sign_in_url: string } | null>(null);
  const [pending, start] = useTransition();
  if (done) {
    return (
      <div className={`${card} space-y-3 p-6`} role="status" data-testid="signed-up">
        <p>
          Your workspace <span className="font-mono">{done.slug}</span> is ready in {region}. Sign in to it with your
          email and password.
        </p>
        <a href={done.sign_in_url} className={link}>
          Sign in to {done.slug}
        </a>
      </div>
    );
  }
  return (
    <form
      method="post"
      noValidate
      className={`${card} space-y-4 p-6 shadow-sm`}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const get = (k: string) => String(data.get(k) ?? '').trim();
        if (String(data.get('password') ?? '') !== String(data.get('again') ?? '')) {
          setErrors({ again: 'The two passwords differ.' });
          return;
        }
        setErrors({});
        setFailure(null);
        start(async () => {
          const res = await signUp({
            email: get('email'),
            password: String(data.get('password') ?? ''),
            ...(get('name') ? { name: get('name') } : {}),
            organization_name: get('organization_name'),
            organization_slug: get('organization_slug').toLowerCase(),
          });
          if (res.ok) return setDone({ slug: res.data.organization.slug, sign_in_url: res.data.sign_in_url });
          const byField = fieldErrors(res.error as unknown as Record<string, unknown>);
          if (res.error.code === 'slug_taken') byField.organization_slug = res.error.message;
          setErrors(byField);
          if (Object.keys(byField).length === 0) setFailure(`${res.error.message} (${res.error.request_id})`);
        });
      }}
    >
      <TextField
        label="Organization name"
        name="organization_name"
        required
        maxLength={100}
        error={errors.organization_name}
      />
      <TextField
        label="Workspace"
        name="organization_slug"
        hint="What your people type to sign in: a–z, 0–9 and -"
        required
        maxLength={63}
        autoComplete="off"
        inputClassName="font-mono"
        error={errors.organization_slug}
      />
      <TextField label="Your name" name="name" maxLength={100} autoComplete="name" error={errors.name} />
      <TextField label="Email" name="email" type="email" required autoComplete="email" error={errors.email} />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={12}
        required
        hint="At least 12 characters."
        error={errors.password}
      />
      <TextField
        label="Repeat it"
        name="again"
        type="password"
        autoComplete="new-password"
        minLength={12}
        required
        error={errors.again}
      />
      {failure && <ErrorAlert>{failure}</ErrorAlert>}
      <button type="submit" disabled={pending} className={`${btnPrimary} w-full`}>
        {pending ? 'Creating…' : 'Create the workspace'}
      </button>
    </form>
  );
}
