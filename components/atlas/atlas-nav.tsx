'use client';
// Atlas' own navigation: regions, servers, organizations, clusters, the directory, the audit log,
// workspace moves, the database cluster, the routing policy and "Explain a request".
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { focusRingTight } from '../ui/styles';

const ITEMS = [
  { href: '/atlas', label: 'Regions', exact: true },
  { href: '/atlas/servers', label: 'Servers' },
  { href: '/atlas/organizations', label: 'Organizations' },
  { href: '/atlas/clusters', label: 'Clusters' },
  { href: '/atlas/audit', label: 'Audit log' },
  { href: '/atlas/directory', label: 'Directory' },
  { href: '/atlas/moves', label: 'Moves' },
  { href: '/atlas/database', label: 'Database' },
  { href: '/atlas/policy', label: 'Policy' },
  { href: '/atlas/requests', label: 'Explain a request' },
] as const;

export function AtlasNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Atlas">
      <ul className="flex flex-wrap gap-1 border-b border-slate-200 pb-2 text-sm dark:border-slate-800">
        {ITEMS.map((item) => {
          const active = 'exact' in item ? pathname === item.href : pathname.startsWith(item.href);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? 'page' : undefined}
                className={`block whitespace-nowrap rounded-md px-3 py-1.5 ${focusRingTight} ${
                  active
                    ? 'bg-cyan-50 font-medium text-cyan-800 dark:bg-cyan-950/70 dark:text-cyan-200'
                    : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white'
                }`}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
