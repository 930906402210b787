// /internal/v1/…: the cells' signed calls into the directory (server/directory/internal-api.ts).
import { serviceRoute } from '~/server/api/adapters/service-route';
import { handleInternalCall } from '~/server/directory/internal-api';

export const dynamic = 'force-dynamic';

const handler = serviceRoute({ name: 'directory.internal', authenticate: false }, (ctx, req) =>
  handleInternalCall(req, ctx.gatewayRegion),
);

export { handler as GET, handler as POST, handler as PUT, handler as DELETE };
