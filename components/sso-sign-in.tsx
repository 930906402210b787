// "Sign in with SSO" at a region's sign-in page. Links, not forms: a form's navigation (and every
// redirect after it) is held to the page's CSP form-action, which names our hosts only, while an
// identity provider can be anywhere (docs/flows/single-sign-on.md).
import { btnSecondary, card } from './ui/styles';
import { TextField } from './ui/text-field';

const start = (params: Record<string, string>) => `/sign-in/sso/start?${new URLSearchParams(params)}`;

/** For the workspace the page names: the same link whether or not it has SSO (or exists). */
export function SsoWorkspaceButton({ workspace, next }: { workspace: string; next: string }) {
  return (
    <a href={start({ workspace, next })} className={`${btnSecondary} w-full`}>
      Sign in with SSO
    </a>
  );
}

/** At a region's page that names no workspace: name it, then its sign-in page offers SSO. */
export function SsoWorkspaceForm({ next }: { next: string }) {
  return (
    <details className={`${card} p-4 text-sm`}>
      <summary className="cursor-pointer font-medium">Sign in with SSO</summary>
      <form method="get" action="/sign-in" className="mt-3 space-y-3">
        <input type="hidden" name="callbackUrl" value={next} />
        <TextField
          label="Your workspace"
          name="workspace"
          autoComplete="organization"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <button type="submit" className={`${btnSecondary} w-full`}>
          Continue
        </button>
      </form>
    </details>
  );
}

/** Platform operators, when the platform's provider is configured. */
export function SsoOperatorButton({ next }: { next: string }) {
  return (
    <a href={start({ platform: '1', next })} className={`${btnSecondary} w-full`}>
      Operators: sign in with SSO
    </a>
  );
}
