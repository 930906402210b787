'use client';
// The top bar: product switch between Arc (customers) and Atlas (operators).
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { focusRingTight } from './ui/styles';
import { UserMenu, type MenuUser } from './user-menu';

const ITEMS = [
  { href: '/', label: 'Overview', match: (p: string) => p === '/' },
  { href: '/arc', label: 'Arc', match: (p: string) => p.startsWith('/arc') },
  { href: '/atlas', label: 'Atlas', match: (p: string) => p.startsWith('/atlas') },
  { href: '/routing', label: 'Routing', match: (p: string) => p.startsWith('/routing') },
];

export function Nav({ region, user }: { region: string; user: MenuUser | null }) {
  const pathname = usePathname();
  return (
    <header className="border-b border-slate-200 bg-white/80 backdrop-blur dark:border-slate-800 dark:bg-slate-950/80">
      {/* Phones: the logo and the user on the first row, the product links on a second. */}
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 sm:h-14 sm:flex-nowrap sm:gap-6 sm:py-0"
      >
        <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
          <span
            aria-hidden
            className="inline-block h-5 w-5 rounded-full bg-gradient-to-br from-indigo-500 to-cyan-400"
          />
          <span className="max-sm:sr-only">Meridian</span>
        </Link>
        <ul className="relative order-last -mx-1 flex w-full items-center gap-0.5 overflow-x-auto px-1 text-sm sm:order-none sm:mx-0 sm:w-auto sm:gap-1 sm:overflow-visible sm:px-0">
          {ITEMS.map((item) => {
            const active = item.match(pathname);
            return (
              <li key={item.href}>
                <Link
                  href={item.href}
                  aria-current={active ? 'page' : undefined}
                  className={`block whitespace-nowrap rounded-md px-2.5 py-1.5 transition-colors sm:px-3 ${focusRingTight} ${
                    active
                      ? 'bg-slate-900 text-white dark:bg-white dark:text-slate-900'
                      : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
                  }`}
                >
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
        <div className="ml-auto flex min-w-0 items-center gap-3">
          <UserMenu user={user} />
          <span
            className="rounded-full border border-slate-300 px-2.5 py-0.5 font-mono text-xs text-slate-600 dark:border-slate-700 dark:text-slate-300"
            title="The region this gateway serves"
          >
            {region}
          </span>
        </div>
      </nav>
    </header>
  );
}
