// The hot-path benchmark's baseline (hot-path.bench.ts): what a plain Next + Prisma app does for
// "list my clusters" with an API key, outside Meridian's middleware (docs/performance.md).
import { apiKeySecretMatches, parseApiKey } from '~/server/api-keys/format';
import { toClusterView } from '~/server/clusters/repository';
import { replica } from '~/server/db/client';
import { secretEquals } from '~/server/net/secret-equal';

/** Only with MERIDIAN_BENCH_TOKEN set and sent: anyone else gets any unknown path's 404. */
export async function GET(req: Request): Promise<Response> {
  const token = process.env.MERIDIAN_BENCH_TOKEN;
  const given = req.headers.get('x-bench-token') ?? '';
  if (!token || token.length < 32 || !secretEquals(given, token)) {
    return new Response('Not Found', { status: 404 });
  }
  const key = parseApiKey((req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, ''));
  const db = replica(key?.region ?? '');
  if (!key || !db) return Response.json({ error: 'unauthenticated' }, { status: 401 });
  const row = await db.apiKey.findUnique({ where: { prefix: key.prefix } });
  // The baseline serves region keys only (the benchmark uses one).
  if (!row || row.revokedAt || !row.region || !apiKeySecretMatches(key.secret, row.secretHash)) {
    return Response.json({ error: 'unauthenticated' }, { status: 401 });
  }
  const limit = Math.min(200, Math.max(1, Number(new URL(req.url).searchParams.get('limit') ?? 50)));
  const rows = await db.cluster.findMany({
    where: { orgId: row.orgId, region: row.region, status: { not: 'deleted' } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  return Response.json({
    data: rows.slice(0, limit).map(toClusterView),
    next_cursor: rows.length > limit ? rows[limit - 1]!.id : null,
  });
}
