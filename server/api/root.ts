// The app router: one sub-router per area, plus a server-side caller for React Server Components.
import { regionRouter } from './routers/region';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  region: regionRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
