// tRPC caller for React Server Components: same procedures and middleware, no HTTP hop.
import 'server-only';
import { headers } from 'next/headers';
import { cache } from 'react';
import { requestOrigin } from '../net/request-origin';
import { createContext } from './context';
import { createCaller } from './root';

export const serverApi = cache(async () => {
  const h = new Headers(await headers());
  return createCaller(
    createContext({
      transport: 'trpc',
      method: 'GET',
      url: new URL('/', requestOrigin(h)),
      headers: h,
      setHeader: () => {},
    }),
  );
});
