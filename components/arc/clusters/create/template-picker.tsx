'use client';
// The template choice: one card per template with its size range, GPU mark and the nodes free
// in each region right now (none free shows red).
import { useId } from 'react';
import { ChoiceCards } from '../../../ui/choice-card';
import { fieldError, fieldLabel } from '../../../ui/styles';
import { Tag } from '../../../ui/tag';
import type { Template } from './use-cluster-draft';

export function TemplatePicker({
  templates,
  value,
  onChange,
  error,
}: {
  templates: Template[];
  value: string | undefined;
  onChange: (id: string) => void;
  error?: string;
}) {
  const errorId = useId();
  return (
    <fieldset className="space-y-2" aria-describedby={error ? errorId : undefined}>
      <legend className={fieldLabel}>Template</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        <ChoiceCards
          name="template"
          options={templates}
          optionValue={(t) => t.id}
          value={value}
          onChange={onChange}
          className="gap-1 p-3"
        >
          {(t) => (
            <>
              <span className="flex items-center justify-between gap-2">
                <span className="font-medium">{t.label}</span>
                {t.gpu && <Tag tone="violet">GPU</Tag>}
              </span>
              <span className="text-xs text-slate-600 dark:text-slate-400">{t.description}</span>
              <span className="text-xs text-slate-600 dark:text-slate-400">
                {t.min_nodes}–{t.max_nodes} nodes · <span className="font-mono">{t.id}</span>
              </span>
              <span className="mt-1 flex flex-wrap gap-1.5">
                {Object.entries(t.capacity).map(([r, n]) => (
                  <span
                    key={r}
                    className={`rounded px-1.5 py-0.5 font-mono text-[11px] ${
                      n === 0
                        ? 'bg-rose-50 text-rose-700 dark:bg-rose-950/60 dark:text-rose-300'
                        : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'
                    }`}
                    title={`${n} nodes free in ${r}`}
                  >
                    {r} {n} free
                  </span>
                ))}
              </span>
            </>
          )}
        </ChoiceCards>
      </div>
      {error && (
        <span id={errorId} className={fieldError}>
          {error}
        </span>
      )}
    </fieldset>
  );
}
