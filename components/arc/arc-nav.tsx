'use client';
// Arc's own navigation: a sidebar on wide screens, a scrolling tab strip on phones. The
// Notifications entry carries the unread count, polled every 10 s.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useTRPC } from '../trpc-provider';
import { focusRingTight } from '../ui/styles';

const ITEMS = [
  { href: '/arc', label: 'Overview', exact: true },
  { href: '/arc/clusters', label: 'Clusters' },
  { href: '/arc/projects', label: 'Projects' },
  { href: '/arc/notifications', label: 'Notifications', badge: true },
  { href: '/arc/organization', label: 'Organization' },
  { href: '/arc/audit', label: 'Audit log' },
  { href: '/arc/settings', label: 'Settings', exclude: ['/arc/settings/api-keys', '/arc/settings/members'] },
  { href: '/arc/settings/members', label: 'Members' },
  { href: '/arc/settings/api-keys', label: 'API keys' },
] as const;

function isActive(item: (typeof ITEMS)[number], path: string): boolean {
  if ('exact' in item) return path === item.href;
  if ('exclude' in item && item.exclude.some((x) => path.startsWith(x))) return false;
  return path === item.href || path.startsWith(`${item.href}/`);
}

/** The unread count the badge shows (also used by the notifications page to stay in step). */
export const UNREAD_INPUT = { unread: 'true' as const, limit: 1 };

export function ArcNav({ orgSlug }: { orgSlug: string | null }) {
  const pathname = usePathname();
  const trpc = useTRPC();
  const unread = useQuery(trpc.notifications.list.queryOptions(UNREAD_INPUT, { refetchInterval: 10_000 }));
  const count = unread.data?.unread_count ?? 0;
  return (
    <nav aria-label="Arc" className="lg:w-44 lg:shrink-0">
      {orgSlug && (
        <p className="mb-3 hidden px-3 text-xs font-semibold uppercase tracking-wider text-slate-500 lg:block dark:text-slate-400">
          {orgSlug}
        </p>
      )}
      {/* relative: the badge's screen-reader text scrolls and clips with the strip on phones */}
      <ul className="relative -mx-4 flex gap-1 overflow-x-auto border-b border-slate-200 px-4 pb-2 text-sm [scrollbar-width:none] lg:mx-0 lg:flex-col lg:overflow-visible lg:border-0 lg:px-0 lg:pb-0 dark:border-slate-800">
        {ITEMS.map((item) => {
          const active = isActive(item, pathname);
          return (
            <li key={item.href} className="shrink-0">
              <Link
                href={item.href}
                aria-current={active ? 'page' : undefined}
                className={`flex items-center justify-between gap-2 whitespace-nowrap rounded-md px-3 py-1.5 transition-colors ${focusRingTight} ${
                  active
                    ? 'bg-indigo-50 font-medium text-indigo-700 dark:bg-indigo-950/70 dark:text-indigo-200'
                    : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white'
                }`}
              >
                <span>{item.label}</span>
                {'badge' in item && count > 0 && (
                  <span
                    data-testid="unread-badge"
                    className="min-w-5 rounded-full bg-indigo-600 px-1.5 text-center text-xs font-semibold leading-5 text-white dark:bg-indigo-500"
                  >
                    {count > 99 ? '99+' : count}
                    <span className="sr-only"> unread</span>
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
