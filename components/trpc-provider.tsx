'use client';
// TanStack Query + tRPC for client components: one procedure per HTTP request, so each gets its
// own request ID and region headers.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { SessionProvider } from 'next-auth/react';
import { useState, type ReactNode } from 'react';
import superjson from 'superjson';
import type { AppRouter } from '~/server/api/root';

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/** What each procedure returns, as the browser receives it. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/**
 * A query whose input names a region sends it as X-Region: tRPC queries have no body, so this is
 * how a filter like "clusters in ams1" reaches the region cascade (as `?region=` does for REST).
 */
function regionHeader(op: { type: string; input: unknown }): Record<string, string> {
  if (op.type !== 'query' || !op.input || typeof op.input !== 'object') return {};
  const region = (op.input as { region?: unknown }).region;
  return typeof region === 'string' && region !== '' ? { 'X-Region': region } : {};
}

function makeQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, refetchOnWindowFocus: true } } });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [httpLink({ url: '/api/trpc', transformer: superjson, headers: ({ op }) => regionHeader(op) })],
    }),
  );
  return (
    <SessionProvider refetchOnWindowFocus={false}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {children}
        </TRPCProvider>
      </QueryClientProvider>
    </SessionProvider>
  );
}
