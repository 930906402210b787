// A list drawn as cards, for phones (a table's rows, one card each), or a line when it is empty.
import { Fragment, type ReactNode } from 'react';
import type { RowData } from './data-table';

export function CardList<T>({
  label,
  items,
  itemKey,
  itemData,
  empty,
  className = '',
  children,
}: {
  /** The list's accessible name. */
  label: string;
  items: readonly T[];
  itemKey: (item: T) => string;
  /** data-* attributes a card carries (tests find cards by them). */
  itemData?: (item: T) => RowData;
  /** What it says instead while it has nothing (no line at all without). */
  empty?: ReactNode;
  className?: string;
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0 && empty) {
    return <p className={`px-4 py-6 text-center text-sm text-slate-600 dark:text-slate-300 ${className}`}>{empty}</p>;
  }
  return (
    <ul className={`divide-y divide-slate-100 dark:divide-slate-800 ${className}`} aria-label={label}>
      {items.map((item) => (
        <li key={itemKey(item)} {...itemData?.(item)} className="space-y-1.5 px-4 py-3">
          {children(item)}
        </li>
      ))}
    </ul>
  );
}

/** A card's line of short facts with a dot between them ("sfo1 · web · 3 nodes"). */
export function DotSeparated({ items, className = '' }: { items: ReactNode[]; className?: string }) {
  return (
    <p className={`flex flex-wrap gap-x-1.5 text-xs text-slate-600 dark:text-slate-300 ${className}`}>
      {items.map((item, i) => (
        <Fragment key={i}>
          {i > 0 && <span aria-hidden>·</span>}
          {item}
        </Fragment>
      ))}
    </p>
  );
}

/** "1 node", "3 nodes". */
export function NodeCount({ n }: { n: number }) {
  return (
    <span>
      {n} {n === 1 ? 'node' : 'nodes'}
    </span>
  );
}
