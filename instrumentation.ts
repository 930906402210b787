// Next.js instrumentation hook, run once when the server starts. The Node.js work (refuse to
// serve without AUTH_SECRET, start OpenTelemetry when configured) is in server/instrumentation-node.ts.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { registerNode } = await import('./server/instrumentation-node');
  await registerNode();
}
