// OpenTelemetry tracing. The SDK is started by instrumentation.ts and configured by the
// standard OTEL_* variables (OTEL_TRACES_EXPORTER=otlp|console|none, OTEL_EXPORTER_OTLP_*);
// without them no exporter runs. Code here only uses the API, so it costs nothing when off.
import { trace, type Span, SpanStatusCode } from '@opentelemetry/api';

export const tracer = trace.getTracer('meridian');

export { SpanStatusCode, type Span };
