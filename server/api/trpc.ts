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

/** Anyone, signed in or not: no organization role asked (e.g. accepting an invitation). */
export const publicProcedure = t.procedure.meta({ access: 'public', role: 'public' }).use(withRequest);

/** A signed-in user or an API key, in an organization or not: for the caller's own account (`GET /v1/me`). */
export const selfProcedure = t.procedure
  .meta({ access: 'authenticated', role: 'self' })
  .use(withRequest)
  .use(({ ctx, next }) => {
    // The request middleware refused anonymous callers already; this tells the types.
    if (ctx.identity.kind === 'anonymous') throw new AppError('unauthenticated', 'sign in or send an API key');
    return next({ ctx: { identity: ctx.identity as SignedIn } });
  });

/** Acting in an organization (Arc): each procedure picks the least role below. No organization: 403. */
const orgProcedure = t.procedure
  .meta({ access: 'authenticated' })
  .use(withRequest)
  .use(({ ctx, next }) => {
    if (ctx.identity.kind === 'anonymous') throw new AppError('unauthenticated', 'sign in or send an API key');
    if (!ctx.org) throw new AppError('forbidden', 'choose an organization first');
    return next({ ctx: { identity: ctx.identity as SignedIn, org: ctx.org } });
  });

/**
 * The roles, checked by the request middleware's scope stage before any input is read
 * (viewer ⊂ member ⊂ admin; an API key needs read, write or admin scope): reading the
 * organization, changing it, managing it. docs/flows/members-and-invitations.md#roles
 */
export const viewerProcedure = orgProcedure.meta({ role: 'viewer' });
export const memberProcedure = orgProcedure.meta({ role: 'member' });
export const adminProcedure = orgProcedure.meta({ role: 'admin' });

/** A signed-in person (not an API key): their own settings. */
export const sessionProcedure = selfProcedure.use(({ ctx, next }) => {
  if (ctx.identity.kind !== 'session') {
    throw new AppError('forbidden', 'settings belong to a signed-in user, not an API key');
  }
  return next({ ctx: { identity: ctx.identity as Session } });
});

/** An organization admin, signed in (not an API key): manages the organization's API keys. */
export const orgAdminProcedure = adminProcedure.use(({ ctx, next }) => {
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
