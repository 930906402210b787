// tRPC setup: the context, the error shape, and the procedure builders, named for who may call
// them. All of them run the one request middleware (server/api/middleware/request.ts).
import { initTRPC } from '@trpc/server';
import superjson from 'superjson';
import { errorBody } from '../errors';
import type { Context } from './context';
import { requestMiddleware, toAppError, type RouteMeta } from './middleware/request';

const t = initTRPC
  .context<Context>()
  .meta<RouteMeta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error, ctx }) {
      const app = toAppError(error);
      // `data.error` is exactly the contract's error object; the REST adapter sends it as the body.
      return {
        ...shape,
        message: app.message,
        data: { httpStatus: app.status, error: errorBody(app, ctx?.requestId ?? '').error },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

const withRequest = t.middleware(async (opts) =>
  requestMiddleware({
    ctx: opts.ctx,
    meta: opts.meta,
    path: opts.path,
    type: opts.type,
    getRawInput: opts.getRawInput,
    next: opts.next,
  }),
);

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure.meta({ access: 'public' }).use(withRequest);
/** A signed-in user or an API key; Arc procedures build on this. */
export const orgProcedure = t.procedure.meta({ access: 'authenticated' }).use(withRequest);
/** Platform operators only (Atlas), refused before any routing or database work. */
export const operatorProcedure = t.procedure.meta({ access: 'operator' }).use(withRequest);
