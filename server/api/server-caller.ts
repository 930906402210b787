// tRPC caller for React Server Components: same procedures, no HTTP hop.
import 'server-only';
import { headers } from 'next/headers';
import { cache } from 'react';
import { createCaller } from './root';
import { createContext } from './trpc';

export const serverApi = cache(async () => createCaller(createContext({ headers: await headers() })));
