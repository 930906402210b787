import type { Metadata } from 'next';
import { GeistMono } from 'geist/font/mono';
import { GeistSans } from 'geist/font/sans';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { Nav } from '~/components/nav';
import { themeScript } from '~/components/theme';
import { ThemeWatcher } from '~/components/theme-watcher';
import { ToastProvider } from '~/components/toast';
import { Providers } from '~/components/trpc-provider';
import { serverApi } from '~/server/api/server-caller';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Meridian', template: '%s · Meridian' },
  description: 'The multi-region operator console.',
  icons: { icon: '/favicon.svg' },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const api = await serverApi();
  const { region } = await api.system.ping();
  const me = await api.me.get().catch(() => null);
  const user =
    me?.kind === 'session' && me.user
      ? {
          email: me.user.email,
          orgId: me.organization?.id ?? null,
          organizations: me.organizations.map((o) => ({ id: o.id, slug: o.slug, role: o.role })),
          operator: me.user.platform_operator,
        }
      : null;
  // The signed-in user's saved theme wins over this browser's; the script applies it before
  // first paint and keeps localStorage in step.
  const theme = me?.kind === 'session' ? (me.settings?.theme ?? null) : null;
  const nonce = (await headers()).get('x-nonce') ?? undefined; // set by proxy.ts, allowed by the CSP
  return (
    <html lang="en" className={`${GeistSans.variable} ${GeistMono.variable}`} suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript(theme) }} />
      </head>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <Providers>
          <ToastProvider>
            <ThemeWatcher />
            <Nav region={region} user={user} />
            <main id="main" className="mx-auto max-w-6xl px-4 py-8">
              {children}
            </main>
          </ToastProvider>
        </Providers>
      </body>
    </html>
  );
}
