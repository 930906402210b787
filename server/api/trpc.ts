// tRPC setup: the context every procedure gets and the procedure builders. The region /
// request-ID / auth / telemetry middleware chain hangs off `publicProcedure`.
import { initTRPC } from '@trpc/server';
import superjson from 'superjson';
import { primary, type Db } from '../db/client';

export interface Context {
  headers: Headers;
  db: Db;
}

export function createContext(opts: { headers: Headers }): Context {
  return { headers: opts.headers, db: primary() };
}

const t = initTRPC.context<Context>().create({ transformer: superjson });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;
