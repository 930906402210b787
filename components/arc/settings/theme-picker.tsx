'use client';
// The theme choice: applied at once, then saved to the account (undone if the save fails).
import { useState, useTransition } from 'react';
import { updateSettings } from '~/server/api/actions/me';
import { applyTheme, type Theme } from '../../theme';
import { errorToast, useToast } from '../../toast';
import { ChoiceCards } from '../../ui/choice-card';
import { panel, sectionText } from '../../ui/styles';
import { ThemePreview } from './theme-preview';

const THEMES: { value: Theme; label: string; hint: string }[] = [
  { value: 'system', label: 'System', hint: 'Follow this device' },
  { value: 'light', label: 'Light', hint: 'Always light' },
  { value: 'dark', label: 'Dark', hint: 'Always dark' },
];

export function ThemePicker({ saved }: { saved: Theme }) {
  const { toast } = useToast();
  const [theme, setTheme] = useState<Theme>(saved);
  const [saving, startSave] = useTransition();

  const choose = (next: Theme) => {
    const before = theme;
    setTheme(next);
    applyTheme(next);
    startSave(async () => {
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

  return (
    <section className={`${panel} space-y-4`} aria-labelledby="theme-heading">
      <div>
        <h2 id="theme-heading" className="font-medium">
          Theme
        </h2>
        <p className={sectionText}>Saved to your account: it follows you to every browser you sign in from.</p>
      </div>
      <fieldset aria-labelledby="theme-heading" aria-busy={saving || undefined}>
        <div className="grid grid-cols-3 gap-3 sm:max-w-lg">
          <ChoiceCards
            name="theme"
            options={THEMES}
            optionValue={(t) => t.value}
            value={theme}
            onChange={(v) => choose(v as Theme)}
            className="gap-2 p-2.5"
          >
            {(t) => (
              <>
                <ThemePreview theme={t.value} />
                <span>
                  <span className="block font-medium">{t.label}</span>
                  <span className="block text-xs text-slate-600 dark:text-slate-400">{t.hint}</span>
                </span>
              </>
            )}
          </ChoiceCards>
        </div>
      </fieldset>
    </section>
  );
}
