// GET /api/v1/cell: what this address is. The global address: {"mode":"directory"}; a region:
// {"mode":"cell","region","name","global_url"} (CONTRACT.md, "Global address").
import { serviceRoute } from '~/server/api/adapters/service-route';
import { cellInfo } from '~/server/cell/info';

export const dynamic = 'force-dynamic';

export const GET = serviceRoute({ name: 'directory.cell', authenticate: false }, async (ctx) =>
  Response.json(await cellInfo(ctx.gatewayRegion), { headers: { 'Cache-Control': 'no-store' } }),
);
