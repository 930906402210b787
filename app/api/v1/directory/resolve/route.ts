// POST /api/v1/directory/resolve: "find your workspace" (server/directory/lookup-api.ts).
import { serviceRoute } from '~/server/api/adapters/service-route';
import { handleLookup } from '~/server/directory/lookup-api';

export const dynamic = 'force-dynamic';

export const POST = serviceRoute({ name: 'directory.resolve', authenticate: false }, (ctx, req) =>
  handleLookup({ gatewayRegion: ctx.gatewayRegion, setHeader: ctx.req.setHeader }, req),
);
