// OpenTelemetry tracing. The SDK is started by instrumentation.ts and configured by the
// standard OTEL_* variables (OTEL_TRACES_EXPORTER=otlp|console|none, OTEL_EXPORTER_OTLP_*);
// without them no exporter runs. Code here only uses the API; with no tracer provider
// registered, spans are not even started (a non-recording span still costs a context switch).
import { INVALID_SPAN_CONTEXT, trace, type Span, SpanStatusCode } from '@opentelemetry/api';

export const tracer = trace.getTracer('meridian');

/** A span that records nothing, for code paths that run untraced. */
export const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Whether a tracer provider is registered (the SDK, or a test's): spans are worth starting. */
export function tracingActive(): boolean {
  const provider = trace.getTracerProvider() as { getDelegateTracer?: (name: string) => unknown };
  return provider.getDelegateTracer ? provider.getDelegateTracer('meridian') !== undefined : true;
}

/** Runs `fn` in an active span named `name` when tracing is on, else directly. */
export function withSpan<T>(name: string, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracingActive() ? tracer.startActiveSpan(name, fn) : fn(NOOP_SPAN);
}

export { SpanStatusCode, type Span };
