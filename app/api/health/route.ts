// Liveness: answers once the server can reach the primary. (Per-region detail: /health/region.)
import { primary } from '~/server/db/client';

export const dynamic = 'force-dynamic';

export async function GET() {
  try {
    await primary().$queryRaw`SELECT 1`;
    return Response.json({ status: 'ok' });
  } catch {
    return Response.json({ status: 'primary_unreachable' }, { status: 503 });
  }
}
