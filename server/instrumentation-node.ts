// What the Node.js server does once at start (from instrumentation.ts; Next also compiles that for
// the edge, which has no process.exit): refuse to serve without AUTH_SECRET; OpenTelemetry's SDK.
import { assertAuthSecret } from './env';

export async function registerNode(): Promise<void> {
  try {
    assertAuthSecret();
  } catch (e) {
    console.error(`[meridian] ${(e as Error).message}`);
    process.exit(1);
  }
  const exporter = process.env.OTEL_TRACES_EXPORTER ?? 'none';
  if (exporter === 'none') return;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'meridian' });
  sdk.start();
}
