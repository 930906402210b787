// "Clusters / web-01": where a page sits, with a link back up.
import Link from 'next/link';
import { link } from './styles';

export function Breadcrumb({ up, current }: { up: { href: string; label: string }; current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <Link href={up.href} className={link}>
        {up.label}
      </Link>
      <span aria-hidden className="mx-1.5 text-slate-400">
        /
      </span>
      <span aria-current="page" className="text-slate-500 dark:text-slate-400">
        {current}
      </span>
    </nav>
  );
}
