// What the Node.js server does once at start (called from instrumentation.ts, which Next also
// compiles for the edge runtime, where process.exit does not exist): refuse to serve without an
// AUTH_SECRET, start Atlas' lag sampler (every gateway tries; the one holding the advisory lock
// samples), then OpenTelemetry's SDK when an exporter is configured.
import { assertAuthSecret } from './env';

export async function registerNode(): Promise<void> {
  try {
    assertAuthSecret();
  } catch (e) {
    console.error(`[meridian] ${(e as Error).message}`);
    process.exit(1);
  }
  const { startLagSampler } = await import('./replication/lag-sampler');
  startLagSampler();
  const exporter = process.env.OTEL_TRACES_EXPORTER ?? 'none';
  if (exporter === 'none') return;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'meridian' });
  sdk.start();
}
