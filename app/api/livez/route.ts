// A bare route handler (no middleware, no database): liveness, and the baseline of the
// request-chain benchmark.
export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json({ ok: true });
}
