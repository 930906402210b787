'use client';
// Copies a value to the clipboard and says so (visibly and to screen readers).
import { useEffect, useState } from 'react';
import { focusRingTight } from './styles';

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (insecure origin, permissions): fall back to a hidden textarea.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

export function CopyButton({
  value,
  label = 'Copy',
  className = '',
  compact = false,
}: {
  value: string;
  /** Accessible name, e.g. "Copy cluster ID". */
  label?: string;
  className?: string;
  /** Icon only (the label stays the accessible name). */
  compact?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <button
      type="button"
      aria-label={label}
      title={copied ? 'Copied' : label}
      onClick={() => void copy(value).then(setCopied)}
      className={`inline-flex shrink-0 items-center gap-1 rounded-md border border-slate-300 px-1.5 py-0.5 text-xs text-slate-600 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800 ${focusRingTight} ${className}`}
    >
      {copied ? (
        <svg aria-hidden viewBox="0 0 16 16" className="h-3.5 w-3.5 fill-none stroke-current stroke-2">
          <path d="M3 8.5l3 3 7-7" />
        </svg>
      ) : (
        <svg aria-hidden viewBox="0 0 16 16" className="h-3.5 w-3.5 fill-none stroke-current stroke-[1.5]">
          <rect x="5" y="5" width="8.5" height="8.5" rx="1.5" />
          <path d="M11 5V3.5A1.5 1.5 0 009.5 2h-6A1.5 1.5 0 002 3.5v6A1.5 1.5 0 003.5 11H5" />
        </svg>
      )}
      {!compact && <span>{copied ? 'Copied' : 'Copy'}</span>}
      <span className="sr-only" aria-live="polite">
        {copied ? 'Copied' : ''}
      </span>
    </button>
  );
}

/** The look of an ID in a table's cell: cut short (its title has it whole), quieter than the row. */
export const ID_IN_TABLE = 'block max-w-24 truncate text-slate-500 dark:text-slate-400';

/** An ID in monospace with its copy button beside it (a table cell, a page's header). */
export function CopyableId({
  id,
  label,
  className = '',
  codeClassName = '',
  title,
}: {
  id: string;
  /** The button's accessible name, e.g. "Copy cluster ID". */
  label: string;
  className?: string;
  codeClassName?: string;
  /** The ID on hover, where it is cut short. */
  title?: string;
}) {
  return (
    <span className={`flex items-center gap-1.5 ${className}`}>
      <code className={`font-mono text-xs ${codeClassName}`} title={title}>
        {id}
      </code>
      <CopyButton value={id} label={label} compact />
    </span>
  );
}
