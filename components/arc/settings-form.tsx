'use client';
// Personal settings: the theme (applied at once, saved to the server and this browser) and, in
// organizations with several regions, the default region forms start from.
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState, useTransition } from 'react';
import { updateSettings } from '~/app/arc/settings/actions';
import { applyTheme, type Theme } from '../theme';
import { errorToast, useToast } from '../toast';
import { btnPrimary, card, input } from '../ui/styles';
import { fieldErrors } from './action-errors';
import { RegionOptions } from '../ui/region-options';

const THEMES: { value: Theme; label: string; hint: string }[] = [
  { value: 'system', label: 'System', hint: 'Follow this device' },
  { value: 'light', label: 'Light', hint: 'Always light' },
  { value: 'dark', label: 'Dark', hint: 'Always dark' },
];

function ThemePreview({ theme }: { theme: Theme }) {
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

export function SettingsForm({
  theme: savedTheme,
  defaultRegion: savedRegion,
  regions,
  orgDefaultRegion,
}: {
  theme: Theme;
  defaultRegion: string | null;
  regions: string[];
  orgDefaultRegion: string | null;
}) {
  const { toast } = useToast();
  const uid = useId();
  const fid = (field: string) => `${uid}-${field}`;
  const router = useRouter();
  const qc = useQueryClient();
  const [theme, setTheme] = useState<Theme>(savedTheme);
  const [region, setRegion] = useState(savedRegion ?? '');
  const [regionSaved, setRegionSaved] = useState(savedRegion ?? '');
  const [regionError, setRegionError] = useState<string | null>(null);
  const [savingTheme, startTheme] = useTransition();
  const [savingRegion, startRegion] = useTransition();

  const chooseTheme = (next: Theme) => {
    const before = theme;
    setTheme(next);
    applyTheme(next);
    startTheme(async () => {
      const res = await updateSettings({ theme: next });
      if (res.ok) {
        toast({ kind: 'success', title: `Theme: ${THEMES.find((t) => t.value === res.data.theme)?.label}` });
      } else {
        setTheme(before);
        applyTheme(before);
        toast(errorToast('Could not save the theme', res.error));
      }
    });
  };

  const saveRegion = (e: React.FormEvent) => {
    e.preventDefault();
    setRegionError(null);
    startRegion(async () => {
      const res = await updateSettings({ default_region: region === '' ? null : region });
      if (res.ok) {
        setRegionSaved(res.data.default_region ?? '');
        toast({
          kind: 'success',
          title: res.data.default_region ? `Default region: ${res.data.default_region}` : 'Default region cleared',
        });
        void qc.invalidateQueries();
        router.refresh();
      } else {
        setRegionError(fieldErrors(res.error).default_region ?? res.error.message);
        toast(errorToast('Could not save the default region', res.error));
      }
    });
  };

  return (
    <div className="space-y-6">
      <section className={`${card} space-y-4 p-4 sm:p-5`} aria-labelledby="theme-heading">
        <div>
          <h2 id="theme-heading" className="font-medium">
            Theme
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Saved to your account: it follows you to every browser you sign in from.
          </p>
        </div>
        <fieldset aria-labelledby="theme-heading" aria-busy={savingTheme || undefined}>
          <div className="grid grid-cols-3 gap-3 sm:max-w-lg">
            {THEMES.map((t) => {
              const checked = t.value === theme;
              return (
                <label
                  key={t.value}
                  className={`flex cursor-pointer flex-col gap-2 rounded-lg border p-2.5 text-sm transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-500 ${
                    checked
                      ? 'border-indigo-500 ring-1 ring-indigo-500'
                      : 'border-slate-200 hover:border-slate-300 dark:border-slate-700 dark:hover:border-slate-600'
                  }`}
                >
                  <input
                    type="radio"
                    name="theme"
                    value={t.value}
                    checked={checked}
                    onChange={() => chooseTheme(t.value)}
                    className="sr-only"
                  />
                  <ThemePreview theme={t.value} />
                  <span>
                    <span className="block font-medium">{t.label}</span>
                    <span className="block text-xs text-slate-500 dark:text-slate-400">{t.hint}</span>
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>
      </section>

      {regions.length > 1 && (
        <form onSubmit={saveRegion} className={`${card} space-y-4 p-4 sm:p-5`} aria-labelledby="region-heading">
          <div>
            <h2 id="region-heading" className="font-medium">
              Your default region
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Where new clusters and projects start out, unless their project says otherwise.
              {orgDefaultRegion ? ` Your organization’s default is ${orgDefaultRegion}.` : ''}
            </p>
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <div className="w-full space-y-1 sm:w-64">
              <label htmlFor={fid('default_region')} className="block text-sm font-medium">
                Default region
              </label>
              <select
                id={fid('default_region')}
                value={region}
                onChange={(e) => setRegion(e.target.value)}
                aria-invalid={regionError ? true : undefined}
                className={`${input} font-mono`}
              >
                <option value="">{orgDefaultRegion ? `Organization default (${orgDefaultRegion})` : 'None'}</option>
                <RegionOptions regions={regions} />
              </select>
            </div>
            <button type="submit" className={btnPrimary} disabled={savingRegion || region === regionSaved}>
              {savingRegion ? 'Saving…' : 'Save'}
            </button>
          </div>
          {regionError && <p className="text-sm text-rose-600 dark:text-rose-400">{regionError}</p>}
        </form>
      )}
    </div>
  );
}
