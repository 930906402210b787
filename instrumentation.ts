// Next.js instrumentation hook: starts OpenTelemetry's Node SDK in the Node.js runtime when an
// exporter is configured by the standard OTEL_* variables (default: none).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const exporter = process.env.OTEL_TRACES_EXPORTER ?? 'none';
  if (exporter === 'none') return;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'meridian' });
  sdk.start();
}
