// A tiny drawing of a page in a theme (both halves for "system"), for the theme cards.
import type { Theme } from '../../theme';

export function ThemePreview({ theme }: { theme: Theme }) {
  const pane = (dark: boolean) => (
    <span className={`flex h-full flex-1 flex-col gap-1 p-1.5 ${dark ? 'bg-slate-900' : 'bg-white'}`}>
      <span className={`h-1.5 w-8 rounded-full ${dark ? 'bg-slate-600' : 'bg-slate-300'}`} />
      <span className={`h-1.5 w-12 rounded-full ${dark ? 'bg-slate-700' : 'bg-slate-200'}`} />
      <span className="mt-auto h-2 w-6 rounded bg-indigo-500" />
    </span>
  );
  return (
    <span aria-hidden className="flex h-14 overflow-hidden rounded-md border border-slate-200 dark:border-slate-700">
      {theme === 'system' ? (
        <>
          {pane(false)}
          {pane(true)}
        </>
      ) : (
        pane(theme === 'dark')
      )}
    </span>
  );
}
