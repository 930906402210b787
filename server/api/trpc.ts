// tRPC setup: the context, the error shape, and the procedure builders named for who may call them,
// each narrowing the context to what its procedures may assume (docs/architecture.md#layers).
import { initTRPC } from '@trpc/server';
import superjson from 'superjson';
import type { Identity } from '../auth/identity';
import { AppError, errorBody } from '../errors';
import type { Context } from './context';
import { toAppError } from './middleware/error-mapping';
import { requestMiddleware, type RouteMeta } from './middleware/request';

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

/** Region, request ID, identity and access for every procedure; the context gains `region`. */
const withRequest = t.middleware(async (opts) =>
  requestMiddleware({
    ctx: opts.ctx,
    meta: opts.meta,
    path: opts.path,
    type: opts.type,
    getRawInput: opts.getRawInput,
    next: (resolved) => opts.next({ ctx: resolved }),
  }),
);

type SignedIn = Exclude<Identity, { kind: 'anonymous' }>;
type Session = Extract<Identity, { kind: 'session' }>;

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure.meta({ access: 'public' }).use(withRequest);

/** A signed-in user or an API key, in an organization or not (e.g. `GET /v1/me`). */
export const authenticatedProcedure = t.procedure
  .meta({ access: 'authenticated' })
  .use(withRequest)
  .use(({ ctx, next }) => {
    // The request middleware refused anonymous callers already; this tells the types.
    if (ctx.identity.kind === 'anonymous') throw new AppError('unauthenticated', 'sign in or send an API key');
    return next({ ctx: { identity: ctx.identity as SignedIn } });
  });

/** Acting in an organization: Arc procedures. A signed-in user who has none gets 403. */
export const orgProcedure = authenticatedProcedure.use(({ ctx, next }) => {
  if (!ctx.org) throw new AppError('forbidden', 'choose an organization first');
  return next({ ctx: { org: ctx.org } });
});

/** A signed-in person (not an API key): their own settings. */
export const sessionProcedure = authenticatedProcedure.use(({ ctx, next }) => {
  if (ctx.identity.kind !== 'session') {
    throw new AppError('forbidden', 'settings belong to a signed-in user, not an API key');
  }
  return next({ ctx: { identity: ctx.identity as Session } });
});

/** An organization admin, signed in: manages the organization's API keys. */
export const orgAdminProcedure = orgProcedure.use(({ ctx, next }) => {
  if (ctx.identity.kind !== 'session' || ctx.identity.orgRole !== 'admin') {
    throw new AppError('forbidden', 'only organization admins, signed in, manage API keys');
  }
  return next({ ctx: { identity: ctx.identity as Session } });
});

/** Platform operators only (Atlas), refused before any routing or database work. */
export const operatorProcedure = t.procedure
  .meta({ access: 'operator' })
  .use(withRequest)
  .use(({ ctx, next }) => {
    // The request middleware refused everyone else already; this tells the types.
    if (ctx.identity.kind !== 'session' || !ctx.identity.platformOperator) {
      throw new AppError('forbidden', 'Atlas is for platform operators');
    }
    return next({ ctx: { identity: ctx.identity as Session } });
  });
