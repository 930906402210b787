// Next.js instrumentation hook, run once when the server starts: refuses to serve without an
// AUTH_SECRET (a fallback secret would let anyone forge sessions), then starts OpenTelemetry's
// Node SDK when an exporter is configured by the standard OTEL_* variables (default: none).
// Also starts Atlas' lag sampler (one process per deployment samples: an advisory lock).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { assertAuthSecret } = await import('./server/env');
  try {
    assertAuthSecret();
  } catch (e) {
    console.error(`[meridian] ${(e as Error).message}`);
    process.exit(1);
  }
  // Atlas' lag-history sampler: every gateway tries; the one holding the advisory lock samples.
  const { startLagSampler } = await import('./server/atlas/lag-sampler');
  startLagSampler();
  const exporter = process.env.OTEL_TRACES_EXPORTER ?? 'none';
  if (exporter === 'none') return;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'meridian' });
  sdk.start();
}
