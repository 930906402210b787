// tRPC caller for React Server Components: same procedures and middleware, no HTTP hop.
import 'server-only';
import { headers } from 'next/headers';
import { cache } from 'react';
import { createContext } from './context';
import { createCaller } from './root';

export const serverApi = cache(async () => {
  const h = new Headers(await headers());
  const host = h.get('host') ?? 'localhost';
  return createCaller(
    createContext({
      transport: 'trpc',
      method: 'GET',
      url: new URL(`http://${host}/`),
      headers: h,
      setHeader: () => {},
    }),
  );
});
