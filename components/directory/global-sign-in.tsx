// Sign-in at the global address, where no password is typed: name your workspace, or pick a region
// to sign in at. Plain forms and links: no JavaScript needed (docs/flows/sign-in-handoff.md).
import type { SignInRegion } from '~/server/directory/sign-in';
import { ErrorAlert } from '../ui/error-alert';
import { btnPrimary, card, link } from '../ui/styles';
import { TextField } from '../ui/text-field';
import { StatusDot } from '../ui/status-dot';

export const GLOBAL_SIGN_IN_ERRORS: Record<string, string> = {
  invalid: 'A workspace name is 2 to 63 lowercase letters, digits or hyphens, and starts with a letter or digit.',
  invalid_region: 'That region is not one Meridian knows.',
  rate_limited: 'Too many look-ups from your network. Wait a minute and try again.',
  unavailable: 'The workspace directory is unavailable right now. Try again in a minute.',
  handoff:
    'That sign-in could not be carried over (it expired, was already used, or began in another browser). Sign in again.',
};

export function GlobalSignIn({
  next,
  regions,
  remembered,
  error,
  downRegion,
}: {
  next: string;
  regions: SignInRegion[];
  remembered?: string;
  error?: string;
  downRegion?: string;
}) {
  const message =
    error === 'region_down'
      ? `${downRegion ?? 'That region'} is unavailable right now. Try again in a few minutes.`
      : error
        ? GLOBAL_SIGN_IN_ERRORS[error]
        : undefined;
  const start = (params: Record<string, string>) =>
    `/sign-in/handoff/start?${new URLSearchParams({ ...params, next })}`;
  return (
    <div className="space-y-6">
      {message && <ErrorAlert>{message}</ErrorAlert>}
      <form method="post" action="/sign-in/handoff/start" className={`${card} space-y-4 p-6 shadow-sm`}>
        <input type="hidden" name="next" value={next} />
        <TextField
          label="Your workspace"
          name="workspace"
          hint="You type your password at your workspace’s region, then come back here signed in."
          defaultValue={remembered}
          autoComplete="organization"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus
        />
        <button type="submit" className={`${btnPrimary} w-full`}>
          Continue to your region
        </button>
      </form>
      <section aria-labelledby="operators-heading" className="space-y-2">
        <h2 id="operators-heading" className="text-sm font-semibold">
          Or sign in at a region
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          For platform operators, and if you know your region.
        </p>
        <ul className="flex flex-wrap gap-2">
          {regions.map((r) => (
            <li key={r.code}>
              {r.status === 'down' ? (
                <span className="inline-flex items-center gap-2 rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">
                  {r.name} <span className="font-mono">({r.code})</span> <StatusDot status={r.status} />
                </span>
              ) : (
                <a
                  href={start({ region: r.code })}
                  className={`${link} inline-flex items-center gap-2 border border-slate-200 px-3 py-1.5 text-sm dark:border-slate-800`}
                  aria-label={`Sign in at ${r.name} (${r.code})`}
                >
                  {r.name} <span className="font-mono">({r.code})</span>
                  {r.status !== 'active' && <StatusDot status={r.status} />}
                </a>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
