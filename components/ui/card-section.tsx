// A card that is a section of its page: named by its own h2 (aria-labelledby), then its content.
import type { ReactNode } from 'react';
import { card } from './styles';

export function CardSection({
  id,
  title,
  children,
  className = '',
}: {
  /** The heading's id, which names the section. */
  id: string;
  title: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={`${card} space-y-3 p-4 ${className}`}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
