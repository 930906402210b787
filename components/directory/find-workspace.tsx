'use client';
// "Find your workspace" at the global address: a plain form posting to /api/v1/directory/resolve,
// which with JavaScript asks for JSON and goes on itself (docs/flows/directory.md).
import { useState, useTransition } from 'react';
import { ErrorAlert } from '../ui/error-alert';
import { btnPrimary, btnSecondary, noticeWarning, panel } from '../ui/styles';
import { TextField } from '../ui/text-field';

const COOKIE = 'meridian_workspace';
const SLUG = /^[a-z0-9][a-z0-9-]{1,62}$/;

export const FIND_ERRORS: Record<string, string> = {
  invalid: 'A workspace name is 2 to 63 lowercase letters, digits or hyphens, and starts with a letter or digit.',
  rate_limited: 'Too many look-ups from your network. Wait a minute and try again.',
  unavailable:
    'The workspace directory is unavailable right now. Try again in a minute, or go to your region’s address directly.',
};

interface Found {
  region: string;
  name: string;
  address: string;
  status: string;
}

function remember(slug: string): void {
  document.cookie = `${COOKIE}=${encodeURIComponent(slug)}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

export function FindWorkspace({
  remembered,
  initialValue,
  initialError,
  initialDown,
}: {
  remembered?: string;
  initialValue?: string;
  initialError?: string;
  /** The region name when a no-JavaScript post found the workspace's region down. */
  initialDown?: string;
}) {
  const [error, setError] = useState<string | null>(initialError ? (FIND_ERRORS[initialError] ?? null) : null);
  const [down, setDown] = useState<string | null>(initialDown ?? null);
  const [pending, startTransition] = useTransition();

  const find = (slug: string) => {
    setError(null);
    setDown(null);
    if (!SLUG.test(slug)) return setError(FIND_ERRORS.invalid!);
    startTransition(async () => {
      let res: Response;
      try {
        res = await fetch('/api/v1/directory/resolve', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ slug }),
        });
      } catch {
        return setError(FIND_ERRORS.unavailable!);
      }
      if (res.status === 429) return setError(FIND_ERRORS.rate_limited!);
      if (res.status === 400) return setError(FIND_ERRORS.invalid!);
      if (!res.ok) return setError(FIND_ERRORS.unavailable!);
      const found = (await res.json()) as Found;
      if (found.status === 'down') return setDown(found.name);
      remember(slug);
      // Another origin (the region's address): a full navigation, not the client router.
      const signInPage = new URL(`/sign-in?workspace=${encodeURIComponent(slug)}`, found.address);
      window.location.href = signInPage.toString();
    });
  };

  return (
    <div className="space-y-4">
      {remembered && (
        <form
          action="/api/v1/directory/resolve"
          method="post"
          className={`${panel} flex flex-wrap items-center justify-between gap-3`}
          onSubmit={(e) => {
            e.preventDefault();
            find(remembered);
          }}
        >
          <input type="hidden" name="workspace" value={remembered} />
          <p className="text-sm">
            Last time you used <strong className="font-mono">{remembered}</strong>.
          </p>
          <button type="submit" className={btnSecondary} disabled={pending}>
            Continue to {remembered}
          </button>
        </form>
      )}
      <form
        action="/api/v1/directory/resolve"
        method="post"
        className={`${panel} space-y-4`}
        onSubmit={(e) => {
          e.preventDefault();
          const slug = String(new FormData(e.currentTarget).get('workspace') ?? '')
            .trim()
            .toLowerCase();
          find(slug);
        }}
      >
        <TextField
          label="Your workspace"
          name="workspace"
          defaultValue={initialValue ?? ''}
          placeholder="acme"
          autoComplete="organization"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          required
          hint="Your organization’s short name, as in acme or globex. We send you to your region to sign in."
        />
        {error && <ErrorAlert>{error}</ErrorAlert>}
        {down && (
          <p role="status" className={noticeWarning}>
            Your workspace’s region, {down}, is unavailable right now. Try again in a few minutes.
          </p>
        )}
        <button type="submit" className={`${btnPrimary} w-full sm:w-auto`} disabled={pending}>
          {pending ? 'Finding…' : 'Continue'}
        </button>
      </form>
    </div>
  );
}
