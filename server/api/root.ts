// The app router: one sub-router per area, plus a server-side caller.
import { atlasRegionsRouter } from './routers/atlas/regions';
import { apiKeysRouter } from './routers/api-keys';
import { meRouter } from './routers/me';
import { projectsRouter } from './routers/projects';
import { regionRouter } from './routers/region';
import { routingRouter } from './routers/routing';
import { systemRouter } from './routers/system';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  system: systemRouter,
  routing: routingRouter,
  region: regionRouter,
  projects: projectsRouter,
  me: meRouter,
  apiKeys: apiKeysRouter,
  atlas: router({ regions: atlasRegionsRouter }),
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
