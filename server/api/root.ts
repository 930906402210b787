// The app router: one sub-router per area, plus a server-side caller.
import { atlasAlertsRouter } from './routers/atlas/alerts';
import { atlasAuditRouter } from './routers/atlas/audit';
import { atlasDirectoryRouter } from './routers/atlas/directory';
import { atlasClustersRouter } from './routers/atlas/clusters';
import { atlasDatabaseRouter } from './routers/atlas/database';
import { atlasHistoryRouter } from './routers/atlas/history';
import { atlasMovesRouter } from './routers/atlas/moves';
import { atlasOrganizationsRouter } from './routers/atlas/organizations';
import { atlasPoliciesRouter } from './routers/atlas/policies';
import { atlasRegionsRouter } from './routers/atlas/regions';
import { atlasRequestsRouter } from './routers/atlas/requests';
import { atlasServersRouter } from './routers/atlas/servers';
import { apiKeysRouter } from './routers/api-keys';
import { auditRouter } from './routers/audit';
import { webhooksRouter } from './routers/webhooks';
import { clustersRouter } from './routers/clusters';
import { kubernetesRouter } from './routers/kubernetes';
import { invitationsRouter } from './routers/invitations';
import { meRouter } from './routers/me';
import { membersRouter } from './routers/members';
import { notificationsRouter } from './routers/notifications';
import { onboardingRouter } from './routers/onboarding';
import { organizationRouter } from './routers/organization';
import { workflowRunsRouter } from './routers/workflow-runs';
import { projectsRouter } from './routers/projects';
import { regionRouter } from './routers/region';
import { requestsRouter } from './routers/requests';
import { routingRouter } from './routers/routing';
import { systemRouter } from './routers/system';
import { templatesRouter } from './routers/templates';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  system: systemRouter,
  routing: routingRouter,
  region: regionRouter,
  projects: projectsRouter,
  me: meRouter,
  apiKeys: apiKeysRouter,
  webhooks: webhooksRouter,
  audit: auditRouter,
  organization: organizationRouter,
  onboarding: onboardingRouter,
  members: membersRouter,
  invitations: invitationsRouter,
  compute: router({ clusters: clustersRouter, templates: templatesRouter, kubernetes: kubernetesRouter }),
  notifications: notificationsRouter,
  workflowRuns: workflowRunsRouter,
  requests: requestsRouter,
  atlas: router({
    regions: atlasRegionsRouter,
    history: atlasHistoryRouter,
    audit: atlasAuditRouter,
    servers: atlasServersRouter,
    alerts: atlasAlertsRouter,
    directory: atlasDirectoryRouter,
    organizations: atlasOrganizationsRouter,
    clusters: atlasClustersRouter,
    moves: atlasMovesRouter,
    policies: atlasPoliciesRouter,
    requests: atlasRequestsRouter,
    database: atlasDatabaseRouter,
  }),
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
