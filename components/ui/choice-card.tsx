// A radio button drawn as a card (templates, themes). The radio stays in the page, visually
// hidden, so arrow keys, the label and screen readers work as for any radio; the card shows focus.
import type { ReactNode } from 'react';

export function ChoiceCard({
  name,
  value,
  checked,
  onChange,
  className = '',
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChange: () => void;
  /** Padding and layout of the card's content. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <label
      className={`flex cursor-pointer flex-col rounded-lg border text-sm transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-500 ${
        checked
          ? 'border-indigo-500 bg-indigo-50/60 ring-1 ring-indigo-500 dark:bg-indigo-950/40'
          : 'border-slate-200 hover:border-slate-300 dark:border-slate-700 dark:hover:border-slate-600'
      } ${className}`}
    >
      <input type="radio" name={name} value={value} checked={checked} onChange={onChange} className="sr-only" />
      {children}
    </label>
  );
}

/** One ChoiceCard per option, the chosen one checked: a radio group's cards (the caller's grid). */
export function ChoiceCards<T>({
  name,
  options,
  optionValue,
  value,
  onChange,
  className,
  children,
}: {
  name: string;
  options: readonly T[];
  optionValue: (option: T) => string;
  value: string | undefined;
  onChange: (value: string) => void;
  className?: string;
  children: (option: T) => ReactNode;
}) {
  return options.map((o) => {
    const v = optionValue(o);
    return (
      <ChoiceCard
        key={v}
        name={name}
        value={v}
        checked={v === value}
        onChange={() => onChange(v)}
        className={className}
      >
        {children(o)}
      </ChoiceCard>
    );
  });
}
